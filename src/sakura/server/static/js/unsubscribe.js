// The pages of an e-mail's unsubscribe link: the button (a form POST to the same address, so
// it works without this script) and the page that says it is done. Only translated here.
import { loadCatalog, translatePage } from "./i18n.js";

await loadCatalog();
translatePage();
document.body.dataset.ready = "1";
