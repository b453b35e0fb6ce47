// `fetch` options as applications write them, for the tests of a call that must end on time
// whatever its fetch does with the signal or the body. Each calls the real fetch.

/** Drops the call's signal (a wrapper copying method, headers and body). */
export const dropsSignal: typeof fetch = (input, init) =>
  fetch(input, {
    method: init?.method,
    headers: init?.headers,
    body: init?.body,
    redirect: init?.redirect,
  });

/** Drops the signal and hands the body on through a TransformStream. */
export const pipesBody: typeof fetch = async (input, init) => {
  const answer = await dropsSignal(input, init);
  return new Response(answer.body?.pipeThrough(new TransformStream()), answer);
};

/**
 * Drops the signal and tees the body (one branch to the caller, one read to its end for a
 * log): cancelling the caller's branch waits for the other to end.
 */
export const teesBody: typeof fetch = async (input, init) => {
  const answer = await dropsSignal(input, init);
  if (!answer.body) return answer;
  const [callers, logged] = answer.body.tee();
  void new Response(logged).text().catch(() => undefined);
  return new Response(callers, answer);
};
