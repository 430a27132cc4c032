// The harness is type-checked by the root tsconfig, which has no Svelte plugin; the components'
// own types are checked by svelte-check with the renderer's config.
declare module '*.svelte' {
  import type { Component } from 'svelte';
  const component: Component<Record<string, unknown>>;
  export default component;
}

declare module '*.css';
