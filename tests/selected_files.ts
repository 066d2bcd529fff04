/**
 * The files a test run was given with `--files` (as `--files a` or `--files=a`, repeated or
 * comma-separated), read from the arguments before Japa takes them.
 */
export function selectedFiles(argv: readonly string[]): string[] {
  const files: string[] = []
  argv.forEach((arg, index) => {
    const value = arg.startsWith('--files=')
      ? arg.slice('--files='.length)
      : arg === '--files'
        ? argv[index + 1]
        : undefined
    if (value) files.push(...value.split(',').filter(Boolean))
  })
  return files
}

/** Whether every file named is a plugin's own test (plugins/<slug>/...). */
export function onlyPluginTests(argv: readonly string[]): boolean {
  const files = selectedFiles(argv)
  return files.length > 0 && files.every((file) => /^(\.\/)?plugins\/[^/]+\//.test(file))
}
