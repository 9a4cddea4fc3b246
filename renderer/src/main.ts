import { mount } from 'svelte';
import App from './App.svelte';
import { createAppState } from './lib/context.js';
import { apiSource } from './lib/source.js';
import './app.css';

mount(App, { target: document.getElementById('app')!, props: { app: createAppState(apiSource()) } });
