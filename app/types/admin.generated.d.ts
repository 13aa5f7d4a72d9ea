/* eslint-disable eslint-comments/disable-enable-pair */
/* eslint-disable eslint-comments/no-unlimited-disable */
/* eslint-disable */
import type * as AdminTypes from './admin.types.js';

export type ShopInfoQueryVariables = AdminTypes.Exact<{ [key: string]: never; }>;


export type ShopInfoQuery = { shop: Pick<AdminTypes.Shop, 'name' | 'myshopifyDomain' | 'currencyCode' | 'ianaTimezone'> };

export type OrderReadQueryVariables = AdminTypes.Exact<{
  id: AdminTypes.Scalars['ID']['input'];
}>;


export type OrderReadQuery = { order?: AdminTypes.Maybe<(
    Pick<AdminTypes.Order, 'id' | 'name' | 'email' | 'createdAt' | 'updatedAt' | 'displayFinancialStatus' | 'displayFulfillmentStatus'>
    & { totalPriceSet: { shopMoney: Pick<AdminTypes.MoneyV2, 'amount' | 'currencyCode'> } }
  )> };

export type OrderFulfillmentStateQueryVariables = AdminTypes.Exact<{
  id: AdminTypes.Scalars['ID']['input'];
}>;


export type OrderFulfillmentStateQuery = { order?: AdminTypes.Maybe<(
    Pick<AdminTypes.Order, 'id' | 'name'>
    & { fulfillments: Array<(
      Pick<AdminTypes.Fulfillment, 'id' | 'status'>
      & { trackingInfo: Array<Pick<AdminTypes.FulfillmentTrackingInfo, 'number' | 'company'>> }
    )>, fulfillmentOrders: { pageInfo: Pick<AdminTypes.PageInfo, 'hasNextPage' | 'endCursor'>, nodes: Array<(
        Pick<AdminTypes.FulfillmentOrder, 'id' | 'status'>
        & { assignedLocation: { location?: AdminTypes.Maybe<Pick<AdminTypes.Location, 'id' | 'name'>> }, lineItems: { pageInfo: Pick<AdminTypes.PageInfo, 'hasNextPage' | 'endCursor'>, nodes: Array<(
            Pick<AdminTypes.FulfillmentOrderLineItem, 'id' | 'remainingQuantity'>
            & { lineItem: Pick<AdminTypes.LineItem, 'sku' | 'quantity'> }
          )> } }
      )> } }
  )> };

export type OrderFulfillmentOrdersQueryVariables = AdminTypes.Exact<{
  id: AdminTypes.Scalars['ID']['input'];
  after: AdminTypes.Scalars['String']['input'];
}>;


export type OrderFulfillmentOrdersQuery = { order?: AdminTypes.Maybe<(
    Pick<AdminTypes.Order, 'id'>
    & { fulfillmentOrders: { pageInfo: Pick<AdminTypes.PageInfo, 'hasNextPage' | 'endCursor'>, nodes: Array<(
        Pick<AdminTypes.FulfillmentOrder, 'id' | 'status'>
        & { assignedLocation: { location?: AdminTypes.Maybe<Pick<AdminTypes.Location, 'id' | 'name'>> }, lineItems: { pageInfo: Pick<AdminTypes.PageInfo, 'hasNextPage' | 'endCursor'>, nodes: Array<(
            Pick<AdminTypes.FulfillmentOrderLineItem, 'id' | 'remainingQuantity'>
            & { lineItem: Pick<AdminTypes.LineItem, 'sku' | 'quantity'> }
          )> } }
      )> } }
  )> };

export type FulfillmentOrderLinesQueryVariables = AdminTypes.Exact<{
  id: AdminTypes.Scalars['ID']['input'];
  after: AdminTypes.Scalars['String']['input'];
}>;


export type FulfillmentOrderLinesQuery = { fulfillmentOrder?: AdminTypes.Maybe<(
    Pick<AdminTypes.FulfillmentOrder, 'id'>
    & { lineItems: { pageInfo: Pick<AdminTypes.PageInfo, 'hasNextPage' | 'endCursor'>, nodes: Array<(
        Pick<AdminTypes.FulfillmentOrderLineItem, 'id' | 'remainingQuantity'>
        & { lineItem: Pick<AdminTypes.LineItem, 'sku' | 'quantity'> }
      )> } }
  )> };

export type FulfillmentOrderMoveMutationVariables = AdminTypes.Exact<{
  id: AdminTypes.Scalars['ID']['input'];
  newLocationId: AdminTypes.Scalars['ID']['input'];
  fulfillmentOrderLineItems?: AdminTypes.InputMaybe<Array<AdminTypes.FulfillmentOrderLineItemInput> | AdminTypes.FulfillmentOrderLineItemInput>;
}>;


export type FulfillmentOrderMoveMutation = { fulfillmentOrderMove?: AdminTypes.Maybe<{ movedFulfillmentOrder?: AdminTypes.Maybe<(
      Pick<AdminTypes.FulfillmentOrder, 'id' | 'status'>
      & { assignedLocation: { location?: AdminTypes.Maybe<Pick<AdminTypes.Location, 'id' | 'name'>> } }
    )>, originalFulfillmentOrder?: AdminTypes.Maybe<Pick<AdminTypes.FulfillmentOrder, 'id' | 'status'>>, userErrors: Array<Pick<AdminTypes.FulfillmentOrderMoveFulfillmentOrderMoveUserError, 'code' | 'field' | 'message'>> }> };

export type OrdersFulfillmentStateQueryVariables = AdminTypes.Exact<{
  ids: Array<AdminTypes.Scalars['ID']['input']> | AdminTypes.Scalars['ID']['input'];
}>;


export type OrdersFulfillmentStateQuery = { nodes: Array<AdminTypes.Maybe<(
    Pick<AdminTypes.Order, 'id' | 'name'>
    & { fulfillments: Array<(
      Pick<AdminTypes.Fulfillment, 'id' | 'status'>
      & { trackingInfo: Array<Pick<AdminTypes.FulfillmentTrackingInfo, 'number' | 'company'>> }
    )>, fulfillmentOrders: { pageInfo: Pick<AdminTypes.PageInfo, 'hasNextPage' | 'endCursor'>, nodes: Array<(
        Pick<AdminTypes.FulfillmentOrder, 'id' | 'status'>
        & { assignedLocation: { location?: AdminTypes.Maybe<Pick<AdminTypes.Location, 'id' | 'name'>> }, lineItems: { pageInfo: Pick<AdminTypes.PageInfo, 'hasNextPage' | 'endCursor'>, nodes: Array<(
            Pick<AdminTypes.FulfillmentOrderLineItem, 'id' | 'remainingQuantity'>
            & { lineItem: Pick<AdminTypes.LineItem, 'sku' | 'quantity'> }
          )> } }
      )> } }
  )>> };

export type FulfillmentCreateMutationVariables = AdminTypes.Exact<{
  fulfillment: AdminTypes.FulfillmentInput;
}>;


export type FulfillmentCreateMutation = { fulfillmentCreate?: AdminTypes.Maybe<{ fulfillment?: AdminTypes.Maybe<(
      Pick<AdminTypes.Fulfillment, 'id' | 'status'>
      & { trackingInfo: Array<Pick<AdminTypes.FulfillmentTrackingInfo, 'number' | 'company'>> }
    )>, userErrors: Array<Pick<AdminTypes.UserError, 'field' | 'message'>> }> };

export type VariantsBySkuQueryVariables = AdminTypes.Exact<{
  query: AdminTypes.Scalars['String']['input'];
  after?: AdminTypes.InputMaybe<AdminTypes.Scalars['String']['input']>;
}>;


export type VariantsBySkuQuery = { productVariants: { pageInfo: Pick<AdminTypes.PageInfo, 'hasNextPage' | 'endCursor'>, nodes: Array<(
      Pick<AdminTypes.ProductVariant, 'id' | 'sku'>
      & { inventoryItem: Pick<AdminTypes.InventoryItem, 'id'> }
    )> } };

export type LocationsQueryVariables = AdminTypes.Exact<{
  after?: AdminTypes.InputMaybe<AdminTypes.Scalars['String']['input']>;
}>;


export type LocationsQuery = { locations: { pageInfo: Pick<AdminTypes.PageInfo, 'hasNextPage' | 'endCursor'>, nodes: Array<Pick<AdminTypes.Location, 'id' | 'name'>> } };

export type InventorySetQuantitiesMutationVariables = AdminTypes.Exact<{
  input: AdminTypes.InventorySetQuantitiesInput;
  idempotencyKey: AdminTypes.Scalars['String']['input'];
}>;


export type InventorySetQuantitiesMutation = { inventorySetQuantities?: AdminTypes.Maybe<{ inventoryAdjustmentGroup?: AdminTypes.Maybe<(
      Pick<AdminTypes.InventoryAdjustmentGroup, 'reason'>
      & { changes: Array<Pick<AdminTypes.InventoryChange, 'name' | 'delta'>> }
    )>, userErrors: Array<Pick<AdminTypes.InventorySetQuantitiesUserError, 'code' | 'field' | 'message'>> }> };

export type ProductsBySkuQueryVariables = AdminTypes.Exact<{
  query: AdminTypes.Scalars['String']['input'];
  after?: AdminTypes.InputMaybe<AdminTypes.Scalars['String']['input']>;
}>;


export type ProductsBySkuQuery = { productVariants: { pageInfo: Pick<AdminTypes.PageInfo, 'hasNextPage' | 'endCursor'>, nodes: Array<(
      Pick<AdminTypes.ProductVariant, 'id' | 'sku'>
      & { product: Pick<AdminTypes.Product, 'id' | 'tags'> }
    )> } };

export type ProductTagsAddMutationVariables = AdminTypes.Exact<{
  id: AdminTypes.Scalars['ID']['input'];
  tags: Array<AdminTypes.Scalars['String']['input']> | AdminTypes.Scalars['String']['input'];
}>;


export type ProductTagsAddMutation = { tagsAdd?: AdminTypes.Maybe<{ node?: AdminTypes.Maybe<Pick<AdminTypes.AbandonedCheckout, 'id'> | Pick<AdminTypes.AbandonedCheckoutLineItem, 'id'> | Pick<AdminTypes.Abandonment, 'id'> | Pick<AdminTypes.AddAllProductsOperation, 'id'> | Pick<AdminTypes.AdditionalFee, 'id'> | Pick<AdminTypes.AnalyticsAnnotation, 'id'> | Pick<AdminTypes.AnalyticsTarget, 'id'> | Pick<AdminTypes.App, 'id'> | Pick<AdminTypes.AppCatalog, 'id'> | Pick<AdminTypes.AppCredit, 'id'> | Pick<AdminTypes.AppInstallation, 'id'> | Pick<AdminTypes.AppPurchaseOneTime, 'id'> | Pick<AdminTypes.AppRevenueAttributionRecord, 'id'> | Pick<AdminTypes.AppSubscription, 'id'> | Pick<AdminTypes.AppUsageRecord, 'id'> | Pick<AdminTypes.Article, 'id'> | Pick<AdminTypes.BasicEvent, 'id'> | Pick<AdminTypes.Blog, 'id'> | Pick<AdminTypes.BulkOperation, 'id'> | Pick<AdminTypes.BusinessEntity, 'id'> | Pick<AdminTypes.CalculatedOrder, 'id'> | Pick<AdminTypes.CartTransform, 'id'> | Pick<AdminTypes.CashDrawer, 'id'> | Pick<AdminTypes.CashManagementCustomReasonCode, 'id'> | Pick<AdminTypes.CashManagementDefaultReasonCode, 'id'> | Pick<AdminTypes.CashManagementSystemReasonCode, 'id'> | Pick<AdminTypes.CashTrackingAdjustment, 'id'> | Pick<AdminTypes.CashTrackingSession, 'id'> | Pick<AdminTypes.CatalogCsvOperation, 'id'> | Pick<AdminTypes.Channel, 'id'> | Pick<AdminTypes.ChannelDefinition, 'id'> | Pick<AdminTypes.ChannelInformation, 'id'> | Pick<AdminTypes.CheckoutAndAccountsConfiguration, 'id'> | Pick<AdminTypes.CheckoutAndAccountsConfigurationOverride, 'id'> | Pick<AdminTypes.CheckoutProfile, 'id'> | Pick<AdminTypes.Collection, 'id'> | Pick<AdminTypes.CollectionConditionsSource, 'id'> | Pick<AdminTypes.CollectionSubCollectionsSource, 'id'> | Pick<AdminTypes.Comment, 'id'> | Pick<AdminTypes.CommentEvent, 'id'> | Pick<AdminTypes.Company, 'id'> | Pick<AdminTypes.CompanyAddress, 'id'> | Pick<AdminTypes.CompanyContact, 'id'> | Pick<AdminTypes.CompanyContactRole, 'id'> | Pick<AdminTypes.CompanyContactRoleAssignment, 'id'> | Pick<AdminTypes.CompanyLocation, 'id'> | Pick<AdminTypes.CompanyLocationCatalog, 'id'> | Pick<AdminTypes.CompanyLocationStaffMemberAssignment, 'id'> | Pick<AdminTypes.ConsentPolicy, 'id'> | Pick<AdminTypes.CurrencyExchangeAdjustment, 'id'> | Pick<AdminTypes.Customer, 'id'> | Pick<AdminTypes.CustomerAccountAppExtensionPage, 'id'> | Pick<AdminTypes.CustomerAccountNativePage, 'id'> | Pick<AdminTypes.CustomerPaymentMethod, 'id'> | Pick<AdminTypes.CustomerSegmentMembersQuery, 'id'> | Pick<AdminTypes.CustomerVisit, 'id'> | Pick<AdminTypes.DeliveryCarrierService, 'id'> | Pick<AdminTypes.DeliveryCondition, 'id'> | Pick<AdminTypes.DeliveryCountry, 'id'> | Pick<AdminTypes.DeliveryCustomization, 'id'> | Pick<AdminTypes.DeliveryLocationGroup, 'id'> | Pick<AdminTypes.DeliveryMethod, 'id'> | Pick<AdminTypes.DeliveryMethodDefinition, 'id'> | Pick<AdminTypes.DeliveryParticipant, 'id'> | Pick<AdminTypes.DeliveryProfile, 'id'> | Pick<AdminTypes.DeliveryProfileItem, 'id'> | Pick<AdminTypes.DeliveryPromiseParticipant, 'id'> | Pick<AdminTypes.DeliveryPromiseProvider, 'id'> | Pick<AdminTypes.DeliveryProvince, 'id'> | Pick<AdminTypes.DeliveryRateDefinition, 'id'> | Pick<AdminTypes.DeliveryZone, 'id'> | Pick<AdminTypes.DiscountAutomaticBxgy, 'id'> | Pick<AdminTypes.DiscountAutomaticNode, 'id'> | Pick<AdminTypes.DiscountCodeNode, 'id'> | Pick<AdminTypes.DiscountNode, 'id'> | Pick<AdminTypes.DiscountRedeemCodeBulkCreation, 'id'> | Pick<AdminTypes.Domain, 'id'> | Pick<AdminTypes.DraftOrder, 'id'> | Pick<AdminTypes.DraftOrderLineItem, 'id'> | Pick<AdminTypes.DraftOrderTag, 'id'> | Pick<AdminTypes.Duty, 'id'> | Pick<AdminTypes.ExchangeLineItem, 'id'> | Pick<AdminTypes.ExternalVideo, 'id'> | Pick<AdminTypes.Fulfillment, 'id'> | Pick<AdminTypes.FulfillmentConstraintRule, 'id'> | Pick<AdminTypes.FulfillmentEvent, 'id'> | Pick<AdminTypes.FulfillmentHold, 'id'> | Pick<AdminTypes.FulfillmentLineItem, 'id'> | Pick<AdminTypes.FulfillmentOrder, 'id'> | Pick<AdminTypes.FulfillmentOrderDestination, 'id'> | Pick<AdminTypes.FulfillmentOrderLineItem, 'id'> | Pick<AdminTypes.FulfillmentOrderMerchantRequest, 'id'> | Pick<AdminTypes.GenericFile, 'id'> | Pick<AdminTypes.GiftCard, 'id'> | Pick<AdminTypes.GiftCardCashOutTransaction, 'id'> | Pick<AdminTypes.GiftCardCreditTransaction, 'id'> | Pick<AdminTypes.GiftCardDebitTransaction, 'id'> | Pick<AdminTypes.IdentityProviderSubject, 'id'> | Pick<AdminTypes.InventoryAdjustmentGroup, 'id'> | Pick<AdminTypes.InventoryItem, 'id'> | Pick<AdminTypes.InventoryItemMeasurement, 'id'> | Pick<AdminTypes.InventoryLevel, 'id'> | Pick<AdminTypes.InventoryQuantity, 'id'> | Pick<AdminTypes.InventoryShipment, 'id'> | Pick<AdminTypes.InventoryShipmentLineItem, 'id'> | Pick<AdminTypes.InventoryTransfer, 'id'> | Pick<AdminTypes.InventoryTransferLineItem, 'id'> | Pick<AdminTypes.LineItem, 'id'> | Pick<AdminTypes.LineItemGroup, 'id'> | Pick<AdminTypes.Location, 'id'> | Pick<AdminTypes.MailingAddress, 'id'> | Pick<AdminTypes.Market, 'id'> | Pick<AdminTypes.MarketCatalog, 'id'> | Pick<AdminTypes.MarketRegionCountry, 'id'> | Pick<AdminTypes.MarketRegionSubdivision, 'id'> | Pick<AdminTypes.MarketWebPresence, 'id'> | Pick<AdminTypes.MarketingActivity, 'id'> | Pick<AdminTypes.MarketingEvent, 'id'> | Pick<AdminTypes.MediaImage, 'id'> | Pick<AdminTypes.Menu, 'id'> | Pick<AdminTypes.Metafield, 'id'> | Pick<AdminTypes.MetafieldDefinition, 'id'> | Pick<AdminTypes.Metaobject, 'id'> | Pick<AdminTypes.MetaobjectDefinition, 'id'> | Pick<AdminTypes.Model3d, 'id'> | Pick<AdminTypes.OnlineStoreTheme, 'id'> | Pick<AdminTypes.Order, 'id'> | Pick<AdminTypes.OrderAdjustment, 'id'> | Pick<AdminTypes.OrderAttributionDefinition, 'id'> | Pick<AdminTypes.OrderCancelJobResult, 'id'> | Pick<AdminTypes.OrderCreateMandatePaymentJobResult, 'id'> | Pick<AdminTypes.OrderDisputeSummary, 'id'> | Pick<AdminTypes.OrderEditSession, 'id'> | Pick<AdminTypes.OrderTransaction, 'id'> | Pick<AdminTypes.Page, 'id'> | Pick<AdminTypes.PaymentCustomization, 'id'> | Pick<AdminTypes.PaymentMandate, 'id'> | Pick<AdminTypes.PaymentSchedule, 'id'> | Pick<AdminTypes.PaymentTerms, 'id'> | Pick<AdminTypes.PaymentTermsTemplate, 'id'> | Pick<AdminTypes.PointOfSaleDevice, 'id'> | Pick<AdminTypes.PointOfSaleDevicePaymentSession, 'id'> | Pick<AdminTypes.PriceList, 'id'> | Pick<AdminTypes.Product, 'tags' | 'id'> | Pick<AdminTypes.ProductBundleOperation, 'id'> | Pick<AdminTypes.ProductDeleteOperation, 'id'> | Pick<AdminTypes.ProductDuplicateOperation, 'id'> | Pick<AdminTypes.ProductFeed, 'id'> | Pick<AdminTypes.ProductOption, 'id'> | Pick<AdminTypes.ProductOptionValue, 'id'> | Pick<AdminTypes.ProductSetOperation, 'id'> | Pick<AdminTypes.ProductTaxonomyNode, 'id'> | Pick<AdminTypes.ProductVariant, 'id'> | Pick<AdminTypes.ProductVariantComponent, 'id'> | Pick<AdminTypes.Publication, 'id'> | Pick<AdminTypes.PublicationResourceOperation, 'id'> | Pick<AdminTypes.QuantityPriceBreak, 'id'> | Pick<AdminTypes.Refund, 'id'> | Pick<AdminTypes.RefundShippingLine, 'id'> | Pick<AdminTypes.Return, 'id'> | Pick<AdminTypes.ReturnLineItem, 'id'> | Pick<AdminTypes.ReturnReasonDefinition, 'id'> | Pick<AdminTypes.ReturnableFulfillment, 'id'> | Pick<AdminTypes.ReverseDelivery, 'id'> | Pick<AdminTypes.ReverseDeliveryLineItem, 'id'> | Pick<AdminTypes.ReverseFulfillmentOrder, 'id'> | Pick<AdminTypes.ReverseFulfillmentOrderDisposition, 'id'> | Pick<AdminTypes.ReverseFulfillmentOrderLineItem, 'id'> | Pick<AdminTypes.SaleAdditionalFee, 'id'> | Pick<AdminTypes.SavedSearch, 'id'> | Pick<AdminTypes.ScriptTag, 'id'> | Pick<AdminTypes.Segment, 'id'> | Pick<AdminTypes.SellingPlan, 'id'> | Pick<AdminTypes.SellingPlanGroup, 'id'> | Pick<AdminTypes.ServerPixel, 'id'> | Pick<AdminTypes.ShippingLabel, 'id'> | Pick<AdminTypes.ShippingLabelPurchaseResult, 'id'> | Pick<AdminTypes.Shop, 'id'> | Pick<AdminTypes.ShopAddress, 'id'> | Pick<AdminTypes.ShopPolicy, 'id'> | Pick<AdminTypes.ShopifyPaymentsAccount, 'id'> | Pick<AdminTypes.ShopifyPaymentsBalanceTransaction, 'id'> | Pick<AdminTypes.ShopifyPaymentsBankAccount, 'id'> | Pick<AdminTypes.ShopifyPaymentsDispute, 'id'> | Pick<AdminTypes.ShopifyPaymentsDisputeEvidence, 'id'> | Pick<AdminTypes.ShopifyPaymentsDisputeFileUpload, 'id'> | Pick<AdminTypes.ShopifyPaymentsDisputeFulfillment, 'id'> | Pick<AdminTypes.ShopifyPaymentsPayout, 'id'> | Pick<AdminTypes.StaffMember, 'id'> | Pick<AdminTypes.StandardMetafieldDefinitionTemplate, 'id'> | Pick<AdminTypes.StoreCreditAccount, 'id'> | Pick<AdminTypes.StoreCreditAccountCreditTransaction, 'id'> | Pick<AdminTypes.StoreCreditAccountDebitRevertTransaction, 'id'> | Pick<AdminTypes.StoreCreditAccountDebitTransaction, 'id'> | Pick<AdminTypes.StorefrontAccessToken, 'id'> | Pick<AdminTypes.SubscriptionBillingAttempt, 'id'> | Pick<AdminTypes.SubscriptionContract, 'id'> | Pick<AdminTypes.SubscriptionDraft, 'id'> | Pick<AdminTypes.TaxonomyAttribute, 'id'> | Pick<AdminTypes.TaxonomyCategory, 'id'> | Pick<AdminTypes.TaxonomyChoiceListAttribute, 'id'> | Pick<AdminTypes.TaxonomyMeasurementAttribute, 'id'> | Pick<AdminTypes.TaxonomyValue, 'id'> | Pick<AdminTypes.TenderTransaction, 'id'> | Pick<AdminTypes.TransactionFee, 'id'> | Pick<AdminTypes.UnverifiedReturnLineItem, 'id'> | Pick<AdminTypes.UrlRedirect, 'id'> | Pick<AdminTypes.UrlRedirectImport, 'id'> | Pick<AdminTypes.Validation, 'id'> | Pick<AdminTypes.Video, 'id'> | Pick<AdminTypes.WebPixel, 'id'> | Pick<AdminTypes.WebhookSubscription, 'id'>>, userErrors: Array<Pick<AdminTypes.UserError, 'field' | 'message'>> }> };

export type SpecialOrderByTagQueryVariables = AdminTypes.Exact<{
  query: AdminTypes.Scalars['String']['input'];
}>;


export type SpecialOrderByTagQuery = { orders: { nodes: Array<(
      Pick<AdminTypes.Order, 'id' | 'name' | 'tags'>
      & { totalPriceSet: { shopMoney: Pick<AdminTypes.MoneyV2, 'amount' | 'currencyCode'> } }
    )> } };

export type SpecialOrderCreateMutationVariables = AdminTypes.Exact<{
  order: AdminTypes.OrderCreateOrderInput;
  options?: AdminTypes.InputMaybe<AdminTypes.OrderCreateOptionsInput>;
}>;


export type SpecialOrderCreateMutation = { orderCreate?: AdminTypes.Maybe<{ order?: AdminTypes.Maybe<(
      Pick<AdminTypes.Order, 'id' | 'name' | 'tags'>
      & { totalPriceSet: { shopMoney: Pick<AdminTypes.MoneyV2, 'amount' | 'currencyCode'> } }
    )>, userErrors: Array<Pick<AdminTypes.OrderCreateUserError, 'code' | 'field' | 'message'>> }> };

export type ShopLocationsQueryVariables = AdminTypes.Exact<{
  after?: AdminTypes.InputMaybe<AdminTypes.Scalars['String']['input']>;
}>;


export type ShopLocationsQuery = { locations: { pageInfo: Pick<AdminTypes.PageInfo, 'hasNextPage' | 'endCursor'>, nodes: Array<Pick<AdminTypes.Location, 'id' | 'legacyResourceId' | 'name' | 'isActive' | 'isFulfillmentService' | 'fulfillsOnlineOrders' | 'updatedAt'>> } };

export type InventoryLevelsBySkuQueryVariables = AdminTypes.Exact<{
  query: AdminTypes.Scalars['String']['input'];
  after?: AdminTypes.InputMaybe<AdminTypes.Scalars['String']['input']>;
}>;


export type InventoryLevelsBySkuQuery = { inventoryItems: { pageInfo: Pick<AdminTypes.PageInfo, 'hasNextPage' | 'endCursor'>, nodes: Array<(
      Pick<AdminTypes.InventoryItem, 'id' | 'sku' | 'tracked'>
      & { inventoryLevels: { pageInfo: Pick<AdminTypes.PageInfo, 'hasNextPage' | 'endCursor'>, nodes: Array<{ location: Pick<AdminTypes.Location, 'id'>, quantities: Array<Pick<AdminTypes.InventoryQuantity, 'name' | 'quantity'>> }> } }
    )> } };

export type InventoryItemLevelsQueryVariables = AdminTypes.Exact<{
  id: AdminTypes.Scalars['ID']['input'];
  after?: AdminTypes.InputMaybe<AdminTypes.Scalars['String']['input']>;
}>;


export type InventoryItemLevelsQuery = { inventoryItem?: AdminTypes.Maybe<(
    Pick<AdminTypes.InventoryItem, 'id'>
    & { inventoryLevels: { pageInfo: Pick<AdminTypes.PageInfo, 'hasNextPage' | 'endCursor'>, nodes: Array<{ location: Pick<AdminTypes.Location, 'id'>, quantities: Array<Pick<AdminTypes.InventoryQuantity, 'name' | 'quantity'>> }> } }
  )> };

export type AppAccessScopesQueryVariables = AdminTypes.Exact<{ [key: string]: never; }>;


export type AppAccessScopesQuery = { currentAppInstallation: { accessScopes: Array<Pick<AdminTypes.AccessScope, 'handle'>> } };

interface GeneratedQueryTypes {
  "#graphql\n  query ShopInfo { shop { name myshopifyDomain currencyCode ianaTimezone } }": {return: ShopInfoQuery, variables: ShopInfoQueryVariables},
  "#graphql\n  query OrderRead($id: ID!) {\n    order(id: $id) {\n      id name email createdAt updatedAt displayFinancialStatus displayFulfillmentStatus\n      totalPriceSet { shopMoney { amount currencyCode } }\n    }\n  }": {return: OrderReadQuery, variables: OrderReadQueryVariables},
  "#graphql\n  query OrderFulfillmentState($id: ID!) {\n    order(id: $id) {\n      id name\n      fulfillments(first: 80) { id status trackingInfo(first: 5) { number company } }\n      fulfillmentOrders(first: 10) {\n        pageInfo { hasNextPage endCursor }\n        nodes {\n          id status\n          assignedLocation { location { id name } }\n          lineItems(first: 20) {\n            pageInfo { hasNextPage endCursor }\n            nodes { id remainingQuantity lineItem { sku quantity } }\n          }\n        }\n      }\n    }\n  }": {return: OrderFulfillmentStateQuery, variables: OrderFulfillmentStateQueryVariables},
  "#graphql\n  query OrderFulfillmentOrders($id: ID!, $after: String!) {\n    order(id: $id) {\n      id\n      fulfillmentOrders(first: 20, after: $after) {\n        pageInfo { hasNextPage endCursor }\n        nodes {\n          id status\n          assignedLocation { location { id name } }\n          lineItems(first: 20) {\n            pageInfo { hasNextPage endCursor }\n            nodes { id remainingQuantity lineItem { sku quantity } }\n          }\n        }\n      }\n    }\n  }": {return: OrderFulfillmentOrdersQuery, variables: OrderFulfillmentOrdersQueryVariables},
  "#graphql\n  query FulfillmentOrderLines($id: ID!, $after: String!) {\n    fulfillmentOrder(id: $id) {\n      id\n      lineItems(first: 250, after: $after) {\n        pageInfo { hasNextPage endCursor }\n        nodes { id remainingQuantity lineItem { sku quantity } }\n      }\n    }\n  }": {return: FulfillmentOrderLinesQuery, variables: FulfillmentOrderLinesQueryVariables},
  "#graphql\n  query OrdersFulfillmentState($ids: [ID!]!) {\n    nodes(ids: $ids) {\n      ... on Order {\n        id name\n        fulfillments(first: 5) {\n          id status trackingInfo(first: 3) { number company }\n        }\n        fulfillmentOrders(first: 3) {\n          pageInfo { hasNextPage endCursor }\n          nodes {\n            id status\n            assignedLocation { location { id name } }\n            lineItems(first: 10) {\n              pageInfo { hasNextPage endCursor }\n              nodes { id remainingQuantity lineItem { sku quantity } }\n            }\n          }\n        }\n      }\n    }\n  }": {return: OrdersFulfillmentStateQuery, variables: OrdersFulfillmentStateQueryVariables},
  "#graphql\n  query VariantsBySku($query: String!, $after: String) {\n    productVariants(first: 100, after: $after, query: $query) {\n      pageInfo { hasNextPage endCursor }\n      nodes { id sku inventoryItem { id } }\n    }\n  }": {return: VariantsBySkuQuery, variables: VariantsBySkuQueryVariables},
  "#graphql\n  query Locations($after: String) {\n    locations(first: 100, after: $after) { pageInfo { hasNextPage endCursor } nodes { id name } }\n  }": {return: LocationsQuery, variables: LocationsQueryVariables},
  "#graphql\n  query ProductsBySku($query: String!, $after: String) {\n    productVariants(first: 100, after: $after, query: $query) {\n      pageInfo { hasNextPage endCursor }\n      nodes { id sku product { id tags } }\n    }\n  }": {return: ProductsBySkuQuery, variables: ProductsBySkuQueryVariables},
  "#graphql\n  query SpecialOrderByTag($query: String!) {\n    orders(first: 5, query: $query) { nodes { id name tags totalPriceSet { shopMoney { amount currencyCode } } } }\n  }": {return: SpecialOrderByTagQuery, variables: SpecialOrderByTagQueryVariables},
  "#graphql\n  query ShopLocations($after: String) {\n    locations(first: 250, after: $after, includeInactive: true, includeLegacy: false, sortKey: ID) {\n      pageInfo { hasNextPage endCursor }\n      nodes { id legacyResourceId name isActive isFulfillmentService fulfillsOnlineOrders updatedAt }\n    }\n  }": {return: ShopLocationsQuery, variables: ShopLocationsQueryVariables},
  "#graphql\n  query InventoryLevelsBySku($query: String!, $after: String) {\n    inventoryItems(first: 10, after: $after, query: $query) {\n      pageInfo { hasNextPage endCursor }\n      nodes {\n        id sku tracked\n        inventoryLevels(first: 25) {\n          pageInfo { hasNextPage endCursor }\n          nodes { location { id } quantities(names: [\"available\"]) { name quantity } }\n        }\n      }\n    }\n  }": {return: InventoryLevelsBySkuQuery, variables: InventoryLevelsBySkuQueryVariables},
  "#graphql\n  query InventoryItemLevels($id: ID!, $after: String) {\n    inventoryItem(id: $id) {\n      id\n      inventoryLevels(first: 250, after: $after) {\n        pageInfo { hasNextPage endCursor }\n        nodes { location { id } quantities(names: [\"available\"]) { name quantity } }\n      }\n    }\n  }": {return: InventoryItemLevelsQuery, variables: InventoryItemLevelsQueryVariables},
  "#graphql\n  query AppAccessScopes { currentAppInstallation { accessScopes { handle } } }": {return: AppAccessScopesQuery, variables: AppAccessScopesQueryVariables},
}

interface GeneratedMutationTypes {
  "#graphql\n  mutation FulfillmentOrderMove($id: ID!, $newLocationId: ID!, $fulfillmentOrderLineItems: [FulfillmentOrderLineItemInput!]) {\n    fulfillmentOrderMove(id: $id, newLocationId: $newLocationId, fulfillmentOrderLineItems: $fulfillmentOrderLineItems) {\n      movedFulfillmentOrder { id status assignedLocation { location { id name } } }\n      originalFulfillmentOrder { id status }\n      userErrors { code field message }\n    }\n  }": {return: FulfillmentOrderMoveMutation, variables: FulfillmentOrderMoveMutationVariables},
  "#graphql\n  mutation FulfillmentCreate($fulfillment: FulfillmentInput!) {\n    fulfillmentCreate(fulfillment: $fulfillment) {\n      fulfillment { id status trackingInfo(first: 10) { number company } }\n      userErrors { field message }\n    }\n  }": {return: FulfillmentCreateMutation, variables: FulfillmentCreateMutationVariables},
  "#graphql\n  mutation InventorySetQuantities($input: InventorySetQuantitiesInput!, $idempotencyKey: String!) {\n    inventorySetQuantities(input: $input) @idempotent(key: $idempotencyKey) {\n      inventoryAdjustmentGroup { reason changes { name delta } }\n      userErrors { code field message }\n    }\n  }": {return: InventorySetQuantitiesMutation, variables: InventorySetQuantitiesMutationVariables},
  "#graphql\n  mutation ProductTagsAdd($id: ID!, $tags: [String!]!) {\n    tagsAdd(id: $id, tags: $tags) {\n      node { id ... on Product { tags } }\n      userErrors { field message }\n    }\n  }": {return: ProductTagsAddMutation, variables: ProductTagsAddMutationVariables},
  "#graphql\n  mutation SpecialOrderCreate($order: OrderCreateOrderInput!, $options: OrderCreateOptionsInput) {\n    orderCreate(order: $order, options: $options) {\n      order { id name tags totalPriceSet { shopMoney { amount currencyCode } } }\n      userErrors { code field message }\n    }\n  }": {return: SpecialOrderCreateMutation, variables: SpecialOrderCreateMutationVariables},
}
declare module '@shopify/admin-api-client' {
  type InputMaybe<T> = AdminTypes.InputMaybe<T>;
  interface AdminQueries extends GeneratedQueryTypes {}
  interface AdminMutations extends GeneratedMutationTypes {}
}
