import nodemailer from "nodemailer";
import type { AppDeps } from "../deps.ts";
import type { Config } from "../config.ts";

/** One message; `text` is the plain-text alternative of `html` for clients that do not show HTML. */
export interface EmailMessage {
  to: string;
  subject: string;
  html: string;
  text: string;
  /** Extra headers, e.g. RFC 8058's List-Unsubscribe; sent over SMTP (the outbox keeps the message without them). */
  headers?: Record<string, string>;
}

/** What happened to a message: delivered over SMTP, or stored in the outbox because no SMTP_URL is set. */
export interface SendResult {
  /** The email_outbox row that records it. */
  id: string;
  status: "sent" | "stored";
}

/** Thrown when the SMTP server refused or could not be reached; the message is kept in the outbox as "failed". */
export class EmailDeliveryError extends Error {
  constructor(
    readonly outboxId: string,
    cause: unknown,
  ) {
    super(`e-mail delivery failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/** The sender of every message: the support address, so that replies reach a person. */
function fromAddress(config: Config): string {
  return `LitReview <${config.SUPPORT_EMAIL}>`;
}

/** Prints through console.info unless LOG_LEVEL is warn, error or silent. */
function logInfo(config: Config, message: string): void {
  if (config.LOG_LEVEL === "debug" || config.LOG_LEVEL === "info") console.info(message);
}

/**
 * Sends one e-mail.
 * - With SMTP_URL (e.g. smtp://user:pass@mail.example.org:587): delivered through nodemailer, and recorded in
 *   email_outbox as "sent" without its body (a delivered message, such as a password reset link, is not kept).
 * - Without: stored in email_outbox as "stored", body included, and logged, so that a developer can read it
 *   (`bun scripts/outbox.ts`).
 * @throws EmailDeliveryError when SMTP delivery fails (the message is then kept as "failed", with the error).
 */
export async function sendEmail(deps: Pick<AppDeps, "config" | "db">, msg: EmailMessage): Promise<SendResult> {
  const { config, db } = deps;
  if (!config.SMTP_URL) {
    const row = await db
      .insertInto("email_outbox")
      .values({ to: msg.to, subject: msg.subject, html: msg.html, text: msg.text, status: "stored" })
      .returning("id")
      .executeTakeFirstOrThrow();
    logInfo(config, `[email] no SMTP_URL: stored message ${row.id} for ${msg.to}: "${msg.subject}"\n${msg.text}`);
    return { id: row.id, status: "stored" };
  }

  // One connection per message (no pool): mail is rare here, and nothing stays open between messages.
  const transport = nodemailer.createTransport({
    url: config.SMTP_URL,
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 30_000,
  });
  try {
    await transport.sendMail({
      from: fromAddress(config),
      to: msg.to,
      subject: msg.subject,
      html: msg.html,
      text: msg.text,
      headers: msg.headers,
    });
  } catch (err) {
    const row = await db
      .insertInto("email_outbox")
      .values({
        to: msg.to,
        subject: msg.subject,
        html: msg.html,
        text: msg.text,
        status: "failed",
        error: err instanceof Error ? err.message : String(err),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    throw new EmailDeliveryError(row.id, err);
  } finally {
    transport.close();
  }
  const row = await db
    .insertInto("email_outbox")
    .values({ to: msg.to, subject: msg.subject, html: null, text: null, status: "sent", sent_at: new Date() })
    .returning("id")
    .executeTakeFirstOrThrow();
  logInfo(config, `[email] sent message ${row.id} to ${msg.to}: "${msg.subject}"`);
  return { id: row.id, status: "sent" };
}
