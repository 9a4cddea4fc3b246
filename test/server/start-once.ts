// The server tests start their servers once per file; `beforeAllOrFail` (one definition, in
// test/helpers/) makes a set-up that throws fail every test instead of skipping them.
export { beforeAllOrFail } from '../helpers/before-all-or-fail.js';
