/**
 * H5: Taro's tab bar draws each tab as <a href="javascript:;"> and switches tabs in the link's click
 * handler. Following the link as well runs a script URL, which the documents' Content-Security-Policy
 * refuses (script-src has no 'unsafe-inline'): a CSP violation on every tab tap. The tap's own handler
 * still runs; only the browser's following of such a link is cancelled.
 */
export function keepScriptLinksUnfollowed(target: Pick<Document, 'addEventListener'> = document) {
  target.addEventListener(
    'click',
    (event) => {
      const link = event.target instanceof Element && event.target.closest('a[href]')
      if (link && /^\s*javascript:/i.test(link.getAttribute('href') ?? '')) event.preventDefault()
    },
    // before the page's own handlers, so none of them can stop it from running
    true,
  )
}
