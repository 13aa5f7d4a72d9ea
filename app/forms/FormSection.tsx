// A titled card of a form or tool page: its heading, a subdued note under it
// (what the section is for, or that it is empty), then its content.
import { BlockStack, Card, Text } from "@shopify/polaris";
import type { ReactNode } from "react";

export function FormSection({ title, note, gap = "300", children }: { title: string; note?: string; gap?: "300" | "400"; children?: ReactNode }) {
  return (
    <Card>
      <BlockStack gap={gap}>
        <Text as="h2" variant="headingMd">
          {title}
        </Text>
        {note && (
          <Text as="p" tone="subdued">
            {note}
          </Text>
        )}
        {children}
      </BlockStack>
    </Card>
  );
}
