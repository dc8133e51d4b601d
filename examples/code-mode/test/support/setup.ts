// Loaded before every test file (package.json "mocha.require"). The faulty fixture plugin, whose exported
// refusal the tests compare with, is a plugin module: like every plugin it needs tsyringe's reflect polyfill,
// which the repository's own test setup loads.
import 'mcp-devtools/build/test/support/setup.js';
import './repository.js';
