// Polaris' link component: absolute URLs open in a new tab (spec 000 §1);
// in-app links navigate in the same window and keep the `locale` parameter.
import { Link as RemixLink, useLocation } from "@remix-run/react";
import type { LinkLikeComponentProps } from "@shopify/polaris/build/ts/src/utilities/link";
import { forwardRef } from "react";
import { isAbsoluteUrl, withLocale } from "~/lib/format";

export const AppLink = forwardRef<HTMLAnchorElement, LinkLikeComponentProps>(function AppLink({ url, children, external, target, ...rest }, ref) {
  const location = useLocation();
  if (isAbsoluteUrl(url) || external) {
    return (
      <a ref={ref} href={url} target="_blank" rel="noopener noreferrer" {...rest}>
        {children}
      </a>
    );
  }
  return (
    <RemixLink ref={ref} to={withLocale(url, location.search)} target={target} {...rest}>
      {children}
    </RemixLink>
  );
});
