// The page's entry. Its order is the boot's: the state over the real data source, then the
// first calls (the address's trace and sets, the corpus list's first page) started before App
// mounts, so they run on the server while the page builds itself. The views the explorer's
// first paint does not draw are chunks of their own (App.svelte, views/Lazy.svelte).
// The boot's steps are marks in the performance timeline (`stepscope boot: …`; bench/overlay.mjs reads them).
import { mount } from 'svelte';
import App from './App.svelte';
import { createAppState } from './lib/context.js';
import { apiSource } from './lib/source.js';
import { followAddress } from './state/links.js';
import './app.css';

performance.mark('stepscope boot: script evaluated');
const app = createAppState(apiSource());
const linking = followAddress(app, location.search);
app.corpus.prefetch();
mount(App, { target: document.getElementById('app')!, props: { app, linking } });
performance.mark('stepscope boot: mounted');
