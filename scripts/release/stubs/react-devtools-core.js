// Stands in for react-devtools-core, an optional peer of ink that ink's devtools.js imports
// statically. Bundled as is, its browser-only code runs at start-up and fails ("self is not
// defined"); the single executable never connects to React DevTools, so nothing is lost.
export default {
  initialize() {},
  connectToDevTools() {},
};
