// A run's messages (D96) are the app's stored messages: one implementation, in app/i18n/messages.ts.
export * from "~/i18n/messages";
