import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { openAiStrictProblems } from '../../testing/src/stand-ins/schema-rules.js';
import { searchCatalogTool } from '../src/tools/built-in/search-catalog.js';
import { searchWebsitesTool } from '../src/tools/built-in/search-websites.js';
import { updateCollectionTool } from '../src/tools/built-in/update-collection.js';
import {
  CATALOG_TOOL_NAMES,
  type CatalogToolNames,
  TOOL_NAME_PATTERN,
} from '../src/tools/definition.js';

const definitions = [searchCatalogTool, searchWebsitesTool, updateCollectionTool];
const names: CatalogToolNames = {
  search_catalog: 'search_catalog',
  search_websites: 'search_websites',
  update_collection: 'update_collection',
};

/** Every property schema in a JSON Schema, with its path. */
function propertiesOf(schema: unknown, path = ''): Array<[string, Record<string, unknown>]> {
  if (typeof schema !== 'object' || schema === null) return [];
  const node = schema as Record<string, unknown>;
  const found: Array<[string, Record<string, unknown>]> = [];
  const properties = (node.properties ?? {}) as Record<string, Record<string, unknown>>;
  for (const [key, child] of Object.entries(properties)) {
    found.push([`${path}.${key}`, child], ...propertiesOf(child, `${path}.${key}`));
  }
  for (const key of ['items', 'anyOf'] as const) {
    const value = node[key];
    for (const child of Array.isArray(value) ? value : value ? [value] : []) {
      found.push(...propertiesOf(child, path));
    }
  }
  return found;
}

describe.each(definitions)('$name', (definition) => {
  const jsonSchema = z.toJSONSchema(definition.inputSchema);

  it('has a name every major provider accepts', () => {
    expect(definition.name).toMatch(TOOL_NAME_PATTERN);
    expect(CATALOG_TOOL_NAMES).toContain(definition.name);
  });

  it('has an input JSON Schema OpenAI strict mode accepts', () => {
    expect(openAiStrictProblems(jsonSchema)).toEqual([]);
  });

  it('describes every field for the model', () => {
    const properties = propertiesOf(jsonSchema);
    expect(properties.length).toBeGreaterThan(2);
    for (const [path, property] of properties) {
      expect(property.description, path).toEqual(expect.any(String));
    }
  });

  it('has a description that tells the model how results feed the other tools', () => {
    const description = definition.description(
      {
        ...names,
        search_catalog: 'x_search_catalog',
        search_websites: 'x_search_websites',
        update_collection: 'x_update_collection',
      },
      'inline',
    );
    expect(description.length).toBeGreaterThan(150);
    expect(description).toMatch(/x_(search_websites|update_collection|search_catalog)/);
    expect(description).not.toMatch(/(?<!x_)\b(search_websites|update_collection)\b/);
  });
});

describe('input schemas', () => {
  it('list every field in the JSON Schema, yet take a left-out field as null (“not given”)', () => {
    const full = { query: 'socks', limit: null, cursor: null, placements: null };
    expect(searchCatalogTool.inputSchema.safeParse(full).data).toEqual(full);
    expect(searchCatalogTool.inputSchema.safeParse({ query: 'socks' }).data).toEqual(full);
  });

  it('refuse limits the service would refuse and fields it does not know', () => {
    const input = { query: 'nike', limit: 21, category_ids: null, country: null, extra: 1 };
    const parsed = searchWebsitesTool.inputSchema.safeParse(input);
    expect(parsed.error?.issues.map((issue) => issue.path.join('.') || issue.code)).toEqual([
      'limit',
      'unrecognized_keys',
    ]);
  });
});
