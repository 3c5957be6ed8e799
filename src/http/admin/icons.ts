/**
 * The icons every page names, the login form too (served before login: assets.ts PUBLIC_PATHS). A
 * browser that reads no SVG icon asks for /favicon.ico by itself, which is served as well.
 */
export const ICON_LINKS =
  '<link rel="icon" href="/admin/assets/icon.svg" type="image/svg+xml"><link rel="apple-touch-icon" href="/admin/assets/icon-192.png">';
