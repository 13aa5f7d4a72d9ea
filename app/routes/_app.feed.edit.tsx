// Edit a feed's schedule: /feed/edit?id= (opened from the Cron Expression cell
// of the Feed Summary; docs/decisions.md D29). Only the cron is editable; an
// expression the scheduler could not run is refused with what is wrong.
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { useAppSettings } from "~/components/app-settings";
import { cronInWords } from "~/lib/cron-words";
import { getFeedForm } from "~/feeds/feeds.server";
import { ReviseRecordPage, type RecordField } from "~/forms/ReviseRecordPage";
import { recordLoader } from "~/http/record-loader.server";

export const loader = recordLoader(getFeedForm);

export default function EditFeed() {
  const { t } = useTranslation();
  const { id, record } = useLoaderData<typeof loader>();
  const { locale } = useAppSettings();
  const fields: RecordField[] = [
    { name: "name", readOnly: true },
    // The schedule in words as it is typed, in the reader's language.
    { name: "cron_expression", required: true, describe: (value) => cronInWords(value, locale) },
  ];
  return (
    <ReviseRecordPage
      title={t("feeds.edit.title")}
      record={record}
      fields={fields}
      labels="feeds.edit.fields"
      saveUrl={`/api/feed/${id}`}
      listUrl="/feed"
      texts={{ loadError: t("feeds.edit.load_error"), saved: t("feeds.edit.saved"), saveError: t("feeds.edit.save_error") }}
    />
  );
}
