// What stands above every list's table besides its filters: the column chooser
// (each staff member's columns, D268) and Export CSV (what the list shows,
// every page, D265). The download goes through fetch (app/lib/download.ts):
// inside the admin only fetch carries the session token.
import { Box, Button, ChoiceList, InlineStack, Popover, Text } from "@shopify/polaris";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { downloadFile } from "~/lib/download";

export interface GridToolsProps {
  /** Every column that can be shown, in order: key and heading. */
  columns: ReadonlyArray<{ key: string; title: string }>;
  hidden: readonly string[];
  onHiddenChange: (hidden: string[]) => void;
  /** The CSV of what the list shows (its /api twin with format=csv); none: no Export CSV. */
  csvUrl?: string;
  csvFallbackName?: string;
}

export function GridTools({ columns, hidden, onHiddenChange, csvUrl, csvFallbackName = "export.csv" }: GridToolsProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [downloading, setDownloading] = useState(false);
  const [failed, setFailed] = useState(false);
  const shown = columns.filter((column) => !hidden.includes(column.key)).map((column) => column.key);

  const exportCsv = async () => {
    if (!csvUrl) return;
    setDownloading(true);
    setFailed(false);
    await downloadFile(csvUrl, csvFallbackName).catch(() => setFailed(true));
    setDownloading(false);
  };

  return (
    <InlineStack gap="200" align="end" blockAlign="center">
      {failed && (
        <Text as="span" tone="critical">
          {t("grid.export_failed")}
        </Text>
      )}
      <Popover
        active={open}
        onClose={() => setOpen(false)}
        preferredAlignment="right"
        activator={
          <Button onClick={() => setOpen((value) => !value)} disclosure={open ? "up" : "down"}>
            {t("grid.columns_button")}
          </Button>
        }
      >
        <Popover.Pane>
          <div style={{ padding: "var(--p-space-300)" }}>
            <ChoiceList
              title={t("grid.columns_title")}
              allowMultiple
              choices={columns.map((column) => ({
                value: column.key,
                label: column.title,
                // The last column shown stays: a table needs one.
                disabled: shown.length === 1 && shown[0] === column.key,
              }))}
              selected={shown}
              onChange={(selected) => onHiddenChange(columns.filter((column) => !selected.includes(column.key)).map((column) => column.key))}
            />
          </div>
        </Popover.Pane>
      </Popover>
      {csvUrl && (
        <Button onClick={() => void exportCsv()} loading={downloading}>
          {t("grid.export_csv")}
        </Button>
      )}
    </InlineStack>
  );
}

/** Under a grid its filters emptied: the way back to every row (D269). */
export function ClearFiltersButton({ onClear }: { onClear: () => void }) {
  const { t } = useTranslation();
  return (
    <Box paddingBlockEnd="400">
      <InlineStack align="center">
        <Button onClick={onClear}>{t("grid.clear_filters")}</Button>
      </InlineStack>
    </Box>
  );
}
