// How an alert leaves the app (D240): e-mail over SMTP with nodemailer, or a
// JSON POST to a webhook (Slack and Teams incoming webhooks show its `text`).
// Both hosts are outside input (an env value, a URL staff typed): each is
// resolved once, checked against the outbound policy (D195), and the
// connection goes to that checked address, so a name cannot rebind elsewhere.
import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import nodemailer from "nodemailer";
import { env } from "~/env.server";
import { appOutboundPolicy } from "~/transfers/outbound-policy.server";
import { checkedAddress } from "@edi/transport";

export interface OutgoingAlert {
  subject: string;
  text: string;
  html: string;
  /** The webhook's JSON besides `text`. */
  payload: Record<string, unknown>;
}

const TIMEOUT_MS = 15_000;

/** Whether e-mail can go out: SMTP_URL is set. */
export const mailConfigured = () => Boolean(env().SMTP_URL);

export async function sendMail(to: string, alert: OutgoingAlert): Promise<void> {
  const smtpUrl = env().SMTP_URL;
  if (!smtpUrl) throw new Error("SMTP_URL is not set");
  const url = new URL(smtpUrl);
  const secure = url.protocol === "smtps:";
  const port = Number(url.port) || (secure ? 465 : 587);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const address = await checkedAddress(appOutboundPolicy(), host, port);
  const transport = nodemailer.createTransport({
    host: address,
    port,
    secure,
    auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
    // The certificate is checked against the name, not the address connected to.
    tls: isIP(host) ? {} : { servername: host },
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: TIMEOUT_MS,
  });
  try {
    await transport.sendMail({ from: env().SMTP_FROM, to, subject: alert.subject, text: alert.text, html: alert.html });
  } finally {
    transport.close();
  }
}

/** One JSON POST; a 2xx answer is delivered, anything else throws with the status. */
export async function postWebhook(webhookUrl: string, alert: OutgoingAlert): Promise<void> {
  const url = new URL(webhookUrl);
  const secure = url.protocol === "https:";
  const port = Number(url.port) || (secure ? 443 : 80);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const address = await checkedAddress(appOutboundPolicy(), host, port);
  const body = JSON.stringify({ text: alert.text, ...alert.payload });
  await new Promise<void>((resolve, reject) => {
    const request = (secure ? https : http).request(
      url,
      {
        method: "POST",
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body), "user-agent": "back-office-alerts" },
        timeout: TIMEOUT_MS,
        lookup: (_hostname, options, callback) => {
          const family = isIP(address);
          if ((options as { all?: boolean }).all) (callback as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [{ address, family }]);
          else (callback as (e: null, a: string, f: number) => void)(null, address, family);
        },
      },
      (response) => {
        response.resume(); // the answer's body is not needed, and is never read whole
        const status = response.statusCode ?? 0;
        if (status >= 200 && status < 300) resolve();
        else reject(new Error(`the webhook answered HTTP ${status}`));
      },
    );
    request.on("timeout", () => request.destroy(new Error(`the webhook did not answer within ${TIMEOUT_MS / 1000} s`)));
    request.on("error", reject);
    request.end(body);
  });
}
