// The sales area's server-defined grids (spec 001 §2, §3, §7, §9): Unassigned
// Orders, Awaiting Assignment (GET /api/assignment) and In Progress Assignment.
import prisma from "~/db.server";
import { defineGrid, gridSourceFrom, optionsFrom, runGrid } from "~/grid/grid.server";
import type { GridAnswer, GridRow } from "~/grid/types";
import { ASSIGN_STATUS_VALUES, FINISHED_ORDER_STATUSES } from "./assignment-status.server";
import { SHOPIFY_LOCATION_STATUSES } from "./shopify-location.server";

/** Pending, Processing, Sent, Complete: waiting on us, under way, under way, done. */
const ASSIGN_STATUS_TONES = { "1": "attention", "2": "info", "3": "info", "4": "success", "5": "attention", "6": null, "7": "critical" } as const;

/** Where Shopify ships it from (D169): moved is what should be; the others say why not, and the fulfilment still goes ahead. */
const SHOPIFY_LOCATION_TONES = { moved: "success", refused: "critical", failed: "warning", no_location: "warning", no_open_line: "attention" } as const;

export const ELIGIBILITY_VALUES = ["0", "1", "2"] as const;

/**
 * Orders with something left to assign: not finished by the order system and
 * their active assignments hold less than their shippable quantity
 * (total_assigned is kept by every assignment change, D21).
 */
export const unassignedOrderGrid = defineGrid({
  id: "unassigned_orders",
  rowKey: "id",
  defaultSort: { key: "increment_id", dir: "asc" },
  source: () => gridSourceFrom(prisma.order),
  baseWhere: {
    total_assigned: { lt: prisma.order.fields.total_shippable_qty_ordered },
    OR: [{ magento_status: null }, { magento_status: { notIn: [...FINISHED_ORDER_STATUSES] } }],
  },
  columns: [
    { key: "increment_id", field: "order_id", label: "sales.unassigned.columns.increment_id", dataType: "text", cellLink: "/order/{order_id}" },
    { key: "shopify_order_id", label: "sales.unassigned.columns.shopify_order_id", dataType: "text" },
    {
      key: "total_shippable_qty_ordered",
      label: "sales.unassigned.columns.total_shippable_qty_ordered",
      dataType: "text",
      valueType: "int",
      searchable: false,
    },
    { key: "total_shipped", label: "sales.unassigned.columns.total_shipped", dataType: "text", valueType: "int", searchable: false },
    { key: "total_assigned", label: "sales.unassigned.columns.total_assigned", dataType: "text", valueType: "int", searchable: false },
    { key: "billing_name", field: "concat_bill_to_name", label: "sales.unassigned.columns.billing_name", dataType: "text" },
    { key: "shipping_name", field: "concat_ship_to_name", label: "sales.unassigned.columns.shipping_name", dataType: "text" },
    { key: "shipping_description", label: "sales.unassigned.columns.shipping_description", dataType: "text" },
    { key: "marketplace_order_id", label: "sales.unassigned.columns.marketplace_order_id", dataType: "text" },
    { key: "billing_addr", field: "concat_billing_address", label: "sales.unassigned.columns.billing_addr", dataType: "text" },
    { key: "shipping_addr", field: "concat_shipping_address", label: "sales.unassigned.columns.shipping_addr", dataType: "text" },
    { key: "customer_notes", label: "sales.unassigned.columns.customer_notes", dataType: "text" },
    { key: "created_time", field: "created_at", label: "sales.unassigned.columns.created_time", dataType: "datetime" },
    { key: "update_time", field: "updated_at", label: "sales.unassigned.columns.update_time", dataType: "datetime" },
    {
      key: "auto_assignment_eligible",
      label: "sales.unassigned.columns.auto_assignment_eligible",
      dataType: "select",
      valueType: "int",
      options: optionsFrom(ELIGIBILITY_VALUES, "sales.eligibility"),
    },
    {
      key: "actions",
      label: "sales.unassigned.columns.actions",
      dataType: "links",
      field: null,
      links: [
        {
          path: "/sales/assignment/manual-assignment",
          field: "order_id",
          field_request_name: "order_id",
          label: "sales.unassigned.manually_assign",
          target: "_self",
        },
      ],
    },
  ],
});

const assignmentColumns = [
  { key: "order_increment_id", label: "sales.assignment.columns.order_increment_id", dataType: "text", cellLink: "/order/{order_increment_id}" },
  { key: "shopify_order_id", label: "sales.assignment.columns.shopify_order_id", dataType: "text" },
  { key: "item_id", label: "sales.assignment.columns.item_id", dataType: "text", valueType: "int" },
  { key: "product_sku", label: "sales.assignment.columns.product_sku", dataType: "text" },
  { key: "qty_assigned", label: "sales.assignment.columns.qty_assigned", dataType: "text", valueType: "int", searchable: false },
  { key: "store_id", label: "sales.assignment.columns.store_id", dataType: "text" },
  { key: "dropshipper_name", label: "sales.assignment.columns.dropshipper_name", dataType: "text" },
  { key: "form_number", label: "sales.assignment.columns.form_number", dataType: "text" },
  { key: "purchase_order", label: "sales.assignment.columns.purchase_order", dataType: "text" },
  { key: "customer_note", label: "sales.assignment.columns.customer_note", dataType: "text" },
  { key: "created_time", label: "sales.assignment.columns.created_time", dataType: "datetime" },
  { key: "update_time", label: "sales.assignment.columns.update_time", dataType: "datetime" },
  {
    key: "shopify_location_status",
    label: "sales.assignment.columns.shopify_location_status",
    dataType: "select",
    options: optionsFrom(SHOPIFY_LOCATION_STATUSES, "sales.shopify_location"),
    tones: SHOPIFY_LOCATION_TONES,
  },
  { key: "shopify_location_message", label: "sales.assignment.columns.shopify_location_message", dataType: "text", codeField: "shopify_location_message_code" },
] as const;

/**
 * Awaiting Assignment: every assignment that still holds its quantity (a DNH
 * transfer ends that), newest first. Reassign and Delete are the page's row
 * actions; the server says why a Sent or Complete one cannot be changed.
 */
export const assignmentGrid = defineGrid({
  id: "assignment",
  rowLink: { path: "/order/{order_increment_id}" },
  rowKey: "id",
  defaultSort: { key: "id", dir: "desc" },
  source: () => gridSourceFrom(prisma.assignment),
  // Not those taken back from their vendor (Cancel Requested, Cancelled): they hold nothing (D225).
  baseWhere: { dnh: { none: {} }, assign_status: { notIn: [5, 6] } },
  columns: [
    { key: "id", label: "sales.assignment.columns.id", dataType: "text", valueType: "int" },
    ...assignmentColumns,
    {
      key: "assign_status",
      label: "sales.assignment.columns.assign_status",
      dataType: "select",
      valueType: "int",
      options: optionsFrom(ASSIGN_STATUS_VALUES, "sales.assign_status"),
      tones: ASSIGN_STATUS_TONES,
    },
    {
      key: "actions",
      label: "sales.assignment.columns.actions",
      dataType: "links",
      field: null,
      // Delete is the page's own button next to it (a confirmation, then DELETE /api/assignment/{id}).
      links: [{ path: "/sales/awaiting-assignment/reassign", field: "id", field_request_name: "id", label: "sales.awaiting.reassign", target: "_self" }],
    },
  ],
});

/**
 * In Progress Assignment: assignments handed over to their store or
 * dropshipper (Processing or Sent) and not transferred; each links to its DNH form.
 */
export const inProgressGrid = defineGrid({
  id: "in_progress_assignment",
  rowLink: { path: "/order/{order_increment_id}" },
  rowKey: "id",
  defaultSort: { key: "assignment_id", dir: "desc" },
  source: () => gridSourceFrom(prisma.assignment),
  // Also those whose vendor is asked to cancel them, or refused to: the vendor still has them (D225).
  baseWhere: { dnh: { none: {} }, assign_status: { in: [2, 3, 5, 7] } },
  columns: [
    { key: "assignment_id", field: "id", label: "sales.assignment.columns.id", dataType: "text", valueType: "int" },
    ...assignmentColumns,
    {
      key: "assign_status",
      label: "sales.assignment.columns.assign_status",
      dataType: "select",
      valueType: "int",
      options: optionsFrom(["2", "3", "5", "7"], "sales.assign_status"),
      tones: ASSIGN_STATUS_TONES,
    },
    {
      key: "actions",
      label: "sales.assignment.columns.actions",
      dataType: "links",
      field: null,
      links: [{ path: "/sales/in-progress-assignment/dnh", field: "id", field_request_name: "assignment_id", label: "sales.in_progress.dnh", target: "_self" }],
    },
  ],
});

/** The spec's flat answer (data, last_page, total at the top level) of a grid answer. */
export function flatAnswer<Text>(answer: GridAnswer<GridRow, Text>) {
  const { data, ...page } = answer.data;
  return { data, ...page, columns: answer.columns };
}

export const listUnassignedOrders = (params: URLSearchParams) => runGrid(unassignedOrderGrid, params);
export const listAssignments = (params: URLSearchParams) => runGrid(assignmentGrid, params);
export const listInProgress = (params: URLSearchParams) => runGrid(inProgressGrid, params);
