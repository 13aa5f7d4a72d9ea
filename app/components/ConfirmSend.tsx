// Asks before a send that cannot be taken back (issue 18 item 3): a file to the
// AS400 or to a vendor, or orders and fulfilments created in Shopify. Polaris'
// Modal, in both modes (App Bridge's ui-modal would need its content as a
// separate page). Cancel, Escape or the close button send nothing.
import { Modal, Text } from "@shopify/polaris";
import { useState } from "react";
import { useTranslation } from "react-i18next";

export interface SendQuestion {
  /** The question, e.g. "Export to AS400?" */
  title: string;
  /** What is sent where, and that it cannot be taken back. */
  body: string;
  /** The confirming button: the action's own label. */
  action: string;
}

/** `ask(question, send)` opens the question; `send` runs only on the confirming button. Render `modal` in the page. */
export function useConfirmSend() {
  const { t } = useTranslation();
  // The question stays while the modal closes, so its text does not vanish during the close.
  const [question, setQuestion] = useState<(SendQuestion & { send: () => unknown }) | null>(null);
  const [open, setOpen] = useState(false);
  const ask = (asked: SendQuestion, send: () => unknown) => {
    setQuestion({ ...asked, send });
    setOpen(true);
  };
  const cancel = () => setOpen(false);
  const modal = (
    <Modal
      open={open && question !== null}
      onClose={cancel}
      title={question?.title ?? ""}
      primaryAction={{
        content: question?.action ?? "",
        onAction: () => {
          setOpen(false);
          void question?.send();
        },
      }}
      secondaryActions={[{ content: t("confirm.cancel"), onAction: cancel }]}
    >
      <Modal.Section>
        <Text as="p">{question?.body}</Text>
      </Modal.Section>
    </Modal>
  );
  return { ask, modal };
}
