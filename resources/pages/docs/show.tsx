import { Head, Link } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import { BareLayout } from '~/components/bare_layout'
import { cn } from '~/lib/utils'

interface DocsProps {
  pages: { slug: string; title: string }[]
  current: { slug: string; title: string; html: string }
}

/** /docs/{page}: one guide of docs/, with the list of the others (DocsController). */
export default function DocsShow({ pages, current }: DocsProps) {
  const { t } = useTranslation()
  return (
    <BareLayout center={false}>
      <Head title={`${current.title} - ${t('docs.title')}`} />
      <div className="mx-auto grid w-full max-w-6xl gap-8 p-6 md:grid-cols-[14rem_1fr]">
        <nav aria-label={t('docs.title')} data-testid="docs-nav">
          <p className="mb-2 text-xs font-semibold tracking-wide text-muted-foreground uppercase">
            {t('docs.title')}
          </p>
          <ul className="grid gap-1 text-sm">
            {pages.map((page) => (
              <li key={page.slug}>
                <Link
                  href={`/docs/${page.slug}`}
                  aria-current={page.slug === current.slug ? 'page' : undefined}
                  className={cn(
                    'block rounded-md px-2 py-1 hover:bg-muted',
                    page.slug === current.slug && 'bg-muted font-medium'
                  )}
                >
                  {page.title}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <article
          data-testid="docs-page"
          className="min-w-0 space-y-3 text-sm leading-relaxed [&_a]:text-primary [&_a]:underline [&_code]:rounded [&_code]:bg-muted [&_code]:px-1 [&_code]:text-xs [&_h1]:text-2xl [&_h1]:font-semibold [&_h2]:pt-4 [&_h2]:text-lg [&_h2]:font-semibold [&_h3]:font-semibold [&_li]:ml-5 [&_ol]:list-decimal [&_pre]:overflow-x-auto [&_pre]:rounded-md [&_pre]:bg-muted [&_pre]:p-3 [&_table]:block [&_table]:overflow-x-auto [&_td]:border [&_td]:px-2 [&_th]:border [&_th]:px-2 [&_ul]:list-disc"
          // Our own docs/ files, rendered on the server from the repository's Markdown.
          dangerouslySetInnerHTML={{ __html: current.html }}
        />
      </div>
    </BareLayout>
  )
}
