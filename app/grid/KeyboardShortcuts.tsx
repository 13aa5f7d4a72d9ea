// The keyboard shortcuts of a grid page (issue 32 item 7, D274), listed in a
// small popover under the grid: "/" the search, J and K the previous and next
// page (Polaris Pagination's keys, as in Shopify's admin), Tab to a row and
// Enter to open it, Space to select it. None fires while typing in a field.
import { BlockStack, Box, Button, InlineStack, Key, KeyboardKey, Popover, Text } from "@shopify/polaris";
import { useState } from "react";
import { useTranslation } from "react-i18next";

export interface Shortcut {
  keys: string[];
  /** What it does, in the reader's language. */
  label: string;
}

export function ShortcutList({ shortcuts }: { shortcuts: Shortcut[] }) {
  return (
    <BlockStack gap="200" as="ul">
      {shortcuts.map((shortcut) => (
        <InlineStack key={shortcut.label} gap="300" blockAlign="center" wrap={false} as="li">
          <InlineStack gap="100" wrap={false}>
            {shortcut.keys.map((key) => (
              <KeyboardKey key={key}>{key}</KeyboardKey>
            ))}
          </InlineStack>
          <Text as="span">{shortcut.label}</Text>
        </InlineStack>
      ))}
    </BlockStack>
  );
}

/** A button that opens the page's shortcuts. */
export function ShortcutsPopover({ shortcuts }: { shortcuts: Shortcut[] }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <Popover
      active={open}
      onClose={() => setOpen(false)}
      preferredAlignment="right"
      activator={
        <Button variant="plain" disclosure={open ? "up" : "down"} onClick={() => setOpen((value) => !value)} ariaExpanded={open}>
          {t("shortcuts.title")}
        </Button>
      }
    >
      <Box padding="400">
        <BlockStack gap="300">
          <Text as="h2" variant="headingSm">
            {t("shortcuts.title")}
          </Text>
          <ShortcutList shortcuts={shortcuts} />
        </BlockStack>
      </Box>
    </Popover>
  );
}

/** J and K page back and forth, as in Shopify's admin (Polaris Pagination ignores them while a field is being typed in; D274). */
export const PAGE_KEYS = { previousKeys: [Key.KeyJ], nextKeys: [Key.KeyK], previousTooltip: "J", nextTooltip: "K" };

/** The order grid's: Polaris IndexFilters' own F (search and filter) and Escape, and the pages' J and K. */
export function OrderGridShortcuts() {
  const { t } = useTranslation();
  const shortcuts: Shortcut[] = [
    { keys: ["F"], label: t("shortcuts.search_and_filter") },
    { keys: ["Esc"], label: t("shortcuts.cancel_search") },
    { keys: ["J"], label: t("shortcuts.previous_page") },
    { keys: ["K"], label: t("shortcuts.next_page") },
  ];
  return <ShortcutsPopover shortcuts={shortcuts} />;
}

/** A grid page's shortcuts; `rowsOpen`: its rows open their record. */
export function KeyboardShortcuts({ rowsOpen, selectable = false }: { rowsOpen: boolean; selectable?: boolean }) {
  const { t } = useTranslation();
  const shortcuts: Shortcut[] = [
    { keys: ["/"], label: t("shortcuts.search") },
    { keys: ["J"], label: t("shortcuts.previous_page") },
    { keys: ["K"], label: t("shortcuts.next_page") },
    ...(rowsOpen ? [{ keys: ["Tab", "Enter"], label: t("shortcuts.open_row") }] : []),
    ...(selectable ? [{ keys: ["Space"], label: t("shortcuts.select_row") }] : []),
  ];
  return (
    <InlineStack align="end">
      <ShortcutsPopover shortcuts={shortcuts} />
    </InlineStack>
  );
}
