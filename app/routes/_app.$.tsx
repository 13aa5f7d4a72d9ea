// The catch-all: the not-found page, inside the frame, with a 404 status.
import { NotFound } from "~/components/NotFound";
import { pageLoader } from "~/http/route.server";

export const loader = pageLoader(async () => {
  throw new Response(null, { status: 404, statusText: "Not Found" });
});

export default function CatchAll() {
  return <NotFound />;
}

export function ErrorBoundary() {
  return <NotFound />;
}
