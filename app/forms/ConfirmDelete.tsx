// Asks before a delete: the question as the title, what goes in the body, the
// destructive confirming button and Cancel. Confirming closes it, then deletes.
import { Modal } from "@shopify/polaris";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

export interface ConfirmDeleteProps {
  open: boolean;
  title: string;
  /** The confirming button's label. */
  action: string;
  /** The delete is under way. */
  loading?: boolean;
  onClose: () => void;
  onConfirm: () => unknown;
  children: ReactNode;
}

export function ConfirmDelete({ open, title, action, loading, onClose, onConfirm, children }: ConfirmDeleteProps) {
  const { t } = useTranslation();
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={title}
      primaryAction={{
        content: action,
        destructive: true,
        loading,
        onAction: () => {
          onClose();
          void onConfirm();
        },
      }}
      secondaryActions={[{ content: t("buttons.cancel"), onAction: onClose }]}
    >
      <Modal.Section>{children}</Modal.Section>
    </Modal>
  );
}
