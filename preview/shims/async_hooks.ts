/**
 * The browser's stand-in for node:async_hooks (the preview page only). A
 * browser has no async context: a store set by run() holds for the
 * synchronous part of fn only; code after an await sees none, so it runs on
 * the stand-in's base client (handle.setUser). preview/main.ts keeps that
 * exact by running one client's work at a time (see preview/README note in
 * README.md "The preview page").
 */
export class AsyncLocalStorage<T> {
  #store: T | undefined = undefined;
  getStore(): T | undefined {
    return this.#store;
  }
  run<R>(store: T, fn: () => R): R {
    const prior = this.#store;
    this.#store = store;
    try {
      return fn();
    } finally {
      this.#store = prior;
    }
  }
}
