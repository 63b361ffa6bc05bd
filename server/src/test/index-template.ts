// What Vite's build writes (web/index.html after `vite build`), cut to what the page rendering touches:
// the configuration preload, an inline script, the entry, a modulepreload, the stylesheet, #root.
export const INDEX_TEMPLATE = `<!doctype html>
<html lang="en">
  <head>
    <title>Pluma</title>
    <link rel="preload" href="/api/appconfig" as="fetch" crossorigin="anonymous" />
    <script>document.documentElement.setAttribute('data-mantine-color-scheme', 'light');</script>
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/react-def.js">
    <link rel="stylesheet" crossorigin href="/assets/index-ghi.css">
  </head>
  <body>
    <div id="root"></div>
    <noscript>This application needs JavaScript.</noscript>
  </body>
</html>
`;
