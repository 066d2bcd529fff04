/**
 * Plugins shipped as npm packages (docs/plugins.md, "Plugins as packages"). A package the
 * app's package.json depends on is a plugin when its own package.json has a
 * `flowcraft.plugin` entry; the packages named here are loaded too (installed some other way,
 * e.g. `npm install --no-save`), and one that is missing or declares no plugin stops the boot.
 * The Vite config reads this file as well, so keep it free of imports.
 */
const pluginsConfig: { packages: string[] } = {
  packages: [],
}

export default pluginsConfig
