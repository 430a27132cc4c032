import { mount } from 'svelte';
import App from './App.svelte';
import './app.css';
import { connect } from './lib/api';

const target = document.getElementById('app');
if (!target) throw new Error('Citewise: #app element missing from index.html');

export default mount(App, { target, props: { connection: connect() } });
