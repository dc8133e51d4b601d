#!/usr/bin/env node
// The entry point: the decorator metadata polyfill is loaded first, once, before anything uses tsyringe.
import './cli/reflect-metadata.js';
import { main } from './cli/main.js';

await main(process.argv);
