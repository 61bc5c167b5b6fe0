// The search page of a site opened from disk (file://). Sphinx's search shows an excerpt of
// each result's page, which it fetch()es, and browsers refuse fetch() of file:// URLs: the
// results came without excerpts. Here such a request is answered from the pages' text, which
// the build writes into ordstat_page_text.js (docs/_ext/ordstat_docs.py); served over HTTP,
// the site is left to Sphinx.
(() => {
  if (location.protocol !== "file:") return;
  const here = document.currentScript.src;
  const root = new URL(".", location.href).pathname;  // the search page is at the site's root
  const texts = new Promise((resolve) => {
    const script = document.createElement("script");
    script.src = new URL("ordstat_page_text.js", here).href;
    script.onload = () => resolve(window.ORDSTAT_PAGE_TEXT || {});
    script.onerror = () => resolve({});
    document.head.appendChild(script);
  });
  const escape = (text) => text.replaceAll("&", "&amp;").replaceAll("<", "&lt;");
  const browserFetch = window.fetch.bind(window);
  window.fetch = (resource, options) => {
    const url = new URL(resource instanceof Request ? resource.url : String(resource),
                        location.href);
    const page = decodeURIComponent(url.pathname);
    if (url.protocol !== "file:" || !page.startsWith(root) || !page.endsWith(".html")) {
      return browserFetch(resource, options);
    }
    const name = page.slice(root.length, -".html".length);
    return texts.then((pages) => name in pages
      ? new Response(`<div role="main">${escape(pages[name])}</div>`,
                     {headers: {"Content-Type": "text/html"}})
      : browserFetch(resource, options));
  };
})();
