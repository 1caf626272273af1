from tests.engine.scenarios import X
def test_x():
    assert X == 1
