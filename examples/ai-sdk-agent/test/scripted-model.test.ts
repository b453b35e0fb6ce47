import { SAMPLE_TRANSCRIPT } from '@catalogkit/example-demo-support/testing';
import { describe, expect, it } from 'vitest';
import { transcriptFromPrompt } from '../demo/scripted-model.js';

type Prompt = Parameters<typeof transcriptFromPrompt>[0];

describe('transcriptFromPrompt', () => {
  const prompt: Prompt = [
    { role: 'system', content: 'You are a shopping assistant.' },
    { role: 'user', content: [{ type: 'text', text: 'find shoes' }] },
    {
      role: 'assistant',
      content: [
        {
          type: 'tool-call',
          toolCallId: 'c1',
          toolName: 'search_catalog',
          input: { query: 'shoes' },
        },
        {
          type: 'tool-call',
          toolCallId: 'c2',
          toolName: 'search_websites',
          input: { query: 'Fell & Trail' },
        },
      ],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'c1',
          toolName: 'search_catalog',
          output: { type: 'text', value: '2 products' },
        },
        {
          type: 'tool-result',
          toolCallId: 'c2',
          toolName: 'search_websites',
          output: { type: 'error-text', value: 'Error: Rate limited' },
        },
      ],
    },
    {
      role: 'assistant',
      content: [
        {
          type: 'tool-call',
          toolCallId: 'c3',
          toolName: 'update_collection',
          input: { collection_id: 'col_a' },
        },
      ],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'c3',
          toolName: 'update_collection',
          output: { type: 'execution-denied', reason: 'Not approved by you: no' },
        },
      ],
    },
  ];

  it('takes the request from the user and pairs each result with its call’s input', () => {
    expect(transcriptFromPrompt(prompt)).toEqual(SAMPLE_TRANSCRIPT);
  });

  it('reads JSON and multi-part outputs as text', () => {
    const transcript = transcriptFromPrompt([
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 'a', toolName: 't', input: {} }],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'a',
            toolName: 't',
            output: { type: 'json', value: { n: 1 } },
          },
          {
            type: 'tool-result',
            toolCallId: 'a',
            toolName: 't',
            output: {
              type: 'content',
              value: [
                { type: 'text', text: 'x' },
                { type: 'text', text: 'y' },
              ],
            },
          },
        ],
      },
    ]);
    expect(transcript.observations.map((observation) => observation.text)).toEqual([
      '{"n":1}',
      'x\ny',
    ]);
  });
});
