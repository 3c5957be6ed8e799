/** No script from anywhere but the hub, no inline script or style, no framing, forms post home only. */
export const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; font-src 'self'; " +
  "form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
