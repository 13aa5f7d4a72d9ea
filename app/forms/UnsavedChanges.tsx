// Protects a form with unsaved changes (issue 18 item 3): the contextual save
// bar (App Bridge's in embedded mode, Polaris' in local mode) with Save and
// Discard, a confirmation before leaving for another screen of the app, and
// the browser's own before a reload or a closed tab.
import { useBlocker } from "@remix-run/react";
import { SaveBar } from "@shopify/app-bridge-react";
import { ContextualSaveBar, Modal, Text } from "@shopify/polaris";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useAppSettings } from "~/components/app-settings";

export interface UnsavedChangesProps {
  /** The form differs from what was loaded or last saved. */
  dirty: boolean;
  saving?: boolean;
  onSave: () => unknown;
  onDiscard: () => unknown;
}

export function UnsavedChanges({ dirty, saving = false, onSave, onDiscard }: UnsavedChangesProps) {
  const { t } = useTranslation();
  const { mode } = useAppSettings();
  // Another screen of the app (a link, Back): asked first. Same screen, other search (a locale switch): not.
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname);
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = "";
    };
    addEventListener("beforeunload", warn);
    return () => removeEventListener("beforeunload", warn);
  }, [dirty]);

  return (
    <>
      {mode === "embedded" ? (
        <SaveBar id="unsaved-changes" open={dirty}>
          <button variant="primary" disabled={saving} onClick={() => void onSave()}>
            {t("unsaved.save")}
          </button>
          <button onClick={() => void onDiscard()}>{t("unsaved.discard")}</button>
        </SaveBar>
      ) : (
        dirty && (
          <ContextualSaveBar
            message={t("unsaved.message")}
            saveAction={{ content: t("unsaved.save"), onAction: () => void onSave(), loading: saving }}
            discardAction={{ content: t("unsaved.discard"), onAction: () => void onDiscard() }}
          />
        )
      )}
      <Modal
        open={blocker.state === "blocked"}
        onClose={() => blocker.reset?.()}
        title={t("unsaved.leave_title")}
        primaryAction={{ content: t("unsaved.leave"), destructive: true, onAction: () => blocker.proceed?.() }}
        secondaryActions={[{ content: t("unsaved.stay"), onAction: () => blocker.reset?.() }]}
      >
        <Modal.Section>
          <Text as="p">{t("unsaved.leave_body")}</Text>
        </Modal.Section>
      </Modal>
    </>
  );
}
