/**
 * The studio API as the browser calls it (routes.ts). The access token travels in the cookie the
 * first page load set, so requests name no token.
 */
import type { Analysis, Block } from "../analyze.ts";
import type { PageSummary } from "../studio.ts";
import type { TeachStatus } from "../teach-job.ts";
import type { CompareStatus } from "../compare.ts";

export type { Block, CompareStatus, PageSummary, TeachStatus };

export interface PagesResponse {
  pages: PageSummary[];
  analysed: number;
  mode: string;
  model: string | null;
}

/** One page as `GET /api/page/KEY` sends it (routes.ts): the analysis's wire fields and the page's names. */
export type PageDetail = Pick<
  Analysis,
  | "pageType"
  | "threshold"
  | "model"
  | "text"
  | "markdown"
  | "emptyReason"
  | "gold"
  | "prf"
  | "goldMain"
  | "warning"
  | "blocks"
> & {
  key: string;
  id: string;
  url: string | null;
  target: string;
  goldType: string | null;
  pageTypes: readonly string[];
};

async function call<T>(path: string, init?: RequestInit): Promise<T> {
  const res = await fetch(path, { credentials: "same-origin", ...init });
  const body = (await res.json().catch(() => ({}))) as T & { error?: string };
  if (!res.ok) throw new Error(body.error ?? `${res.status} ${res.statusText}`);
  return body;
}

export const getPages = (): Promise<PagesResponse> => call("/api/pages");
export const getPage = (key: string): Promise<PageDetail> => call(`/api/page/${encodeURIComponent(key)}`);
export const frameUrl = (key: string): string => `/frame/${encodeURIComponent(key)}`;

export function saveLabels(
  key: string,
  main: number[],
  pageType: string | null,
): Promise<{ saved: boolean }> {
  return call(`/api/page/${encodeURIComponent(key)}/labels`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ main, ...(pageType ? { pageType } : {}) }),
  });
}

export const getTeach = (): Promise<TeachStatus | null> => call("/api/teach");

export function startTeach(host: string): Promise<TeachStatus> {
  return call("/api/teach", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ host }),
  });
}

export interface DashboardResponse {
  model: string;
  pages: PageSummary[];
  byType: { type: string; pages: number; f1: number }[];
  importance: { name: string; share: number }[];
  analysed: number;
  total: number;
}

export const getDashboard = (): Promise<DashboardResponse> => call("/api/evaluate");

export const getCompare = (): Promise<CompareStatus | null> => call("/api/compare");
export const startCompare = (): Promise<CompareStatus> =>
  call("/api/compare", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
