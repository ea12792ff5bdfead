"""axe-core in the browser tests (vendored: static/vendor/axe-core, see static/vendor/VERSIONS.txt).

axe is loaded from the live server's own static files (``add_script_tag(url=...)``): the pages' Content
Security Policy allows scripts from 'self' only, so an inline copy (``path=``) would be refused."""

AXE = "/static/vendor/axe-core/axe.min.js"
RUN_AXE = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({rule: v.id, impact: v.impact, help: v.help,
                  nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 8), count: v.nodes.length}));
}"""


def serious_violations(page) -> list[dict]:
    """The serious and critical axe-core violations of the page shown (rule, help, the elements)."""
    page.add_script_tag(url=AXE)
    return page.evaluate(RUN_AXE)
