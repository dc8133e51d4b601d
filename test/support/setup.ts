// Loaded once before every test file, as the CLI entry point loads it before anything uses tsyringe.
import 'reflect-metadata';
