import { createInterface } from 'node:readline/promises';

/** A decision on a tool call that needs approval. */
export interface ApprovalDecision {
  approved: boolean;
  /** Who decided, shown next to the decision. */
  decidedBy: string;
  reason?: string;
}

/** What the approver is asked about. */
export interface ApprovalQuestion {
  toolName: string;
  input: unknown;
}

/** Decides whether a tool call that changes the user's data may run. */
export type Approver = (question: ApprovalQuestion) => Promise<ApprovalDecision>;

/** Approves everything: the demo's `--yes`, so it runs unattended. */
export function autoApprover(decidedBy = '--yes flag'): Approver {
  return async () => ({ approved: true, decidedBy, reason: 'approved in advance' });
}

/** Denies everything, with a reason the model is told. */
export function denyingApprover(reason: string, decidedBy = 'no one to ask'): Approver {
  return async () => ({ approved: false, decidedBy, reason });
}

/** Asks at the terminal: "y" approves, anything else denies. */
export function terminalApprover(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
): Approver {
  return async ({ toolName }) => {
    const prompt = createInterface({ input, output });
    try {
      const reply = await prompt.question(`  Allow ${toolName}? [y/N] `);
      const approved = /^y(es)?$/i.test(reply.trim());
      return {
        approved,
        decidedBy: 'you, at the terminal',
        reason: approved ? 'confirmed' : 'declined',
      };
    } finally {
      prompt.close();
    }
  };
}

/**
 * The approver for a command-line run: `--yes` approves in advance; otherwise the shopper
 * is asked at an interactive terminal; with no terminal (piped, CI) the change is denied,
 * so nothing is changed that no one confirmed.
 */
export function approverForCli(options: {
  yes: boolean;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: NodeJS.WritableStream;
}): Approver {
  if (options.yes) return autoApprover();
  if (options.stdin.isTTY) return terminalApprover(options.stdin, options.stdout);
  return denyingApprover('no terminal to ask for approval; run with --yes to approve in advance');
}
