import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect } from 'vitest';
import type { OpenedPage } from './browser.js';
import { type Exposure, storageExposures } from './capture.js';

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

/** Every file of the built page as the server serves it, plus the page's own address. */
export async function servedAssetExposures(pageDir: string, baseUrl: string): Promise<Exposure[]> {
  const paths = ['/', ...filesUnder(pageDir).map((file) => `/${relative(pageDir, file)}`)];
  return Promise.all(
    paths.map(async (path) => {
      const response = await fetch(new URL(path, baseUrl));
      expect(response.status, `served ${path}`).toBe(200);
      return { where: `served asset ${path}`, text: await response.text() };
    }),
  );
}

/**
 * Fails when `secret` appears anywhere the page could see it, naming the places (never
 * printing the texts, which would print the secret). Also fails on unhandled rejections.
 */
export async function expectNothingLeaked(opened: OpenedPage, secret: string): Promise<void> {
  await opened.capture.settle();
  const places = [...opened.capture.exposures(), ...(await storageExposures(opened.page))];
  // A capture that saw nothing would pass vacuously.
  expect(opened.capture.requests.length).toBeGreaterThan(0);
  expect(opened.capture.responses.some((response) => response.body.length > 0)).toBe(true);
  const leaks = places.filter((place) => place.text.includes(secret)).map((place) => place.where);
  expect(leaks).toEqual([]);
  expect(opened.capture.unhandled()).toEqual([]);
}

/** Fails when `secret` is in any served asset of the built page. */
export async function expectAssetsClean(pageDir: string, baseUrl: string, secret: string) {
  const assets = await servedAssetExposures(pageDir, baseUrl);
  expect(assets.some((asset) => asset.where.endsWith('.js'))).toBe(true);
  expect(assets.filter((asset) => asset.text.includes(secret)).map((asset) => asset.where)).toEqual(
    [],
  );
}
