// Loaded once before every test file, as the CLI entry point loads it before anything uses tsyringe.
import 'reflect-metadata';
// Before anything asks os.tmpdir(): the run's temporary folder, removed when the run ends.
import './run-temp.js';
