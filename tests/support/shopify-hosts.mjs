// Loaded with `node --import` into an app started by the embedded-mode tests:
// the name resolution a real machine gets from DNS, for the one host the tests
// cannot reach. Every TLS connection to *.myshopify.com:443 goes to the
// loopback Shopify stand-in (SHOPIFY_STAND_IN_TLS_PORT) instead, with the
// shop's name kept as SNI, so the certificate is checked as for Shopify (its
// test CA is given in NODE_EXTRA_CA_CERTS). The app's code is unchanged.
import tls from "node:tls";

const port = Number(process.env.SHOPIFY_STAND_IN_TLS_PORT);
if (!port) throw new Error("shopify-hosts.mjs: SHOPIFY_STAND_IN_TLS_PORT is not set");
const connect = tls.connect;
tls.connect = function (...args) {
  const options = args.find((arg) => arg && typeof arg === "object");
  if (options && /\.myshopify\.com$/i.test(options.host ?? "") && Number(options.port ?? 443) === 443 && !options.socket) {
    options.servername ??= options.host;
    options.host = "127.0.0.1";
    options.port = port;
  }
  return connect.apply(this, args);
};
