// The dismissible banner every form and action button shows after a save, and
// the one a form shows when what it edits could not be loaded.
import { Banner } from "@shopify/polaris";
import { useState } from "react";
import type { SubmitOutcome } from "./submit-result";

export function FormBanner({ outcome, onDismiss }: { outcome: SubmitOutcome | null; onDismiss: () => void }) {
  if (!outcome) return null;
  return (
    <Banner tone={outcome.tone} title={outcome.title} onDismiss={onDismiss}>
      {outcome.messages.length > 0 && (
        <ul>
          {outcome.messages.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      )}
    </Banner>
  );
}

/** A critical banner of one line while `text` is set (a load or download that failed); its close button calls onDismiss. */
export function ErrorBanner({ text, onDismiss }: { text: string | false | null; onDismiss: () => void }) {
  if (!text) return null;
  return (
    <Banner tone="critical" onDismiss={onDismiss}>
      <p>{text}</p>
    </Banner>
  );
}

/** A form's "could not load" banner (spec 000 §8): shown when the page opens without its record, until dismissed. */
export function LoadErrorBanner({ failed, text }: { failed: boolean; text: string }) {
  const [shown, setShown] = useState(failed);
  return <ErrorBanner text={shown && text} onDismiss={() => setShown(false)} />;
}
