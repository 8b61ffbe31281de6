import type { ControlPageData } from '#domain/control-page'

/** The data the server wrote into a control page (adapters/supplier/control-page.ts), or null. */
export function controlPageData(html: string): ControlPageData | null {
  const found = /<script type="application\/json" id="control-data">([\s\S]*?)<\/script>/.exec(html)
  return found ? (JSON.parse(found[1]) as ControlPageData) : null
}
