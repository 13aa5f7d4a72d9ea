// The dismissible banner every form and action button shows after a save.
import { Banner } from "@shopify/polaris";
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
