// A form's page: the page (title, Back, actions), then the banner saying its
// record could not be loaded, the banner of its last save, and the form.
import { BlockStack } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { AppPage, type AppPageProps } from "~/components/AppPage";
import { FormBanner, LoadErrorBanner } from "./FormBanner";
import type { SubmitOutcome } from "./submit-result";

export interface FormPageProps extends Omit<AppPageProps, "backAction"> {
  /** Where Back goes. */
  back: string;
  /** The form's useFormSubmit: its last outcome shows as a banner. */
  save: { outcome: SubmitOutcome | null; dismiss: () => void };
  /** The "could not load" text when the page opened without its record; false when it has it. */
  loadError: string | false;
}

export function FormPage({ back, save, loadError, children, ...page }: FormPageProps) {
  const { t } = useTranslation();
  return (
    <AppPage {...page} backAction={{ content: t("buttons.back"), url: back }}>
      <BlockStack gap="400">
        <LoadErrorBanner failed={Boolean(loadError)} text={loadError || ""} />
        <FormBanner outcome={save.outcome} onDismiss={save.dismiss} />
        {children}
      </BlockStack>
    </AppPage>
  );
}
