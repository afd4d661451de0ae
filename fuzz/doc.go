// Package fuzz is the home of gpudiff's random programs and their
// minimization; it holds no code of its own:
//
//   - fuzz/gen generates random structured WGSL-subset programs (gopter
//     generators, a public import path);
//   - fuzz/shrink minimizes failing cases.
//
// Checking one case is package check; campaigns (generate, check, shrink,
// save, journal, baseline) are package campaign; the vendor-driver matrix
// (one corpus on every adapter) is package drivers, beside campaign;
// rendering results (the matrix's text, HTML, JUnit and JSON, and the
// Amber export) is package report.
package fuzz
