// A real SMTP server on loopback (nodemailer's smtp-server) that keeps what it
// receives, parsed as a mail client would (mailparser): the tests read alerts
// the way a recipient would, subject and text decoded. `refuseNext` makes it
// answer the next messages with a 451, as a mail server that is in trouble.
import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
  html: string;
}

export interface MailTestServer {
  url: string;
  received: ReceivedMail[];
  refuseNext(count: number): void;
  stop(): Promise<void>;
}

export async function startMailServer(): Promise<MailTestServer> {
  const received: ReceivedMail[] = [];
  let refusals = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        if (refusals > 0) {
          refusals--;
          const error = Object.assign(new Error("Try again later"), { responseCode: 451 });
          return callback(error);
        }
        void simpleParser(Buffer.concat(chunks)).then((mail: ParsedMail) => {
          received.push({
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            subject: mail.subject ?? "",
            text: mail.text ?? "",
            html: typeof mail.html === "string" ? mail.html : "",
          });
          callback();
        }, callback);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    refuseNext: (count) => {
      refusals = count;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
