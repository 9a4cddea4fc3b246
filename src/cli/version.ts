export { version } from '../export/version.js';
