import type { Runner } from '#sdk/plugin'
import { callLinkedIn, memberUrn } from './api.js'
import type plugin from './index.js'

const URN = /^urn:li:(person|organization):[\w-]+$/

/**
 * POST /rest/posts: the text as the post's commentary, PUBLIC or CONNECTIONS, in the main
 * feed, published at once; an article link when one is given. LinkedIn answers 201 with
 * the post's URN in the x-restli-id header: the node's output `{ postUrn, url }`.
 */
const sharePost: Runner<typeof plugin, 'Share a post'> = async ({
  options,
  credentials,
  http,
  signal,
  logger,
}) => {
  const commentary = options.text ?? ''
  if (!commentary.trim()) throw new Error('LinkedIn: the text is empty')
  const io = { http, signal }
  let author = options.author?.trim() ?? ''
  if (author && !URN.test(author)) {
    throw new Error(`LinkedIn: "${author}" is not a member or organization URN`)
  }
  if (!author) author = (await memberUrn(credentials, io)).urn
  const visibility = options.visibility === 'connections' ? 'CONNECTIONS' : 'PUBLIC'
  if (visibility === 'CONNECTIONS' && author.startsWith('urn:li:organization:')) {
    throw new Error('LinkedIn: an organization posts publicly; connections only is for members')
  }
  const post: Record<string, unknown> = {
    author,
    commentary,
    visibility,
    distribution: {
      feedDistribution: 'MAIN_FEED',
      targetEntities: [],
      thirdPartyDistributionChannels: [],
    },
    lifecycleState: 'PUBLISHED',
    isReshareDisabledByAuthor: false,
  }
  const articleUrl = options.articleUrl?.trim()
  if (articleUrl) {
    if (!/^https?:\/\/\S+$/i.test(articleUrl)) {
      throw new Error(`LinkedIn: "${articleUrl}" is not a link`)
    }
    post.content = {
      article: { source: articleUrl, title: options.articleTitle?.trim() || articleUrl },
    }
  }
  const { headers } = await callLinkedIn(credentials, '/rest/posts', {
    ...io,
    method: 'POST',
    body: post,
  })
  const postUrn = headers.get('x-restli-id') ?? ''
  logger.success(`Post shared on LinkedIn (${visibility === 'PUBLIC' ? 'public' : 'connections'})`)
  return {
    output: {
      postUrn,
      url: postUrn ? `https://www.linkedin.com/feed/update/${postUrn}/` : null,
      author,
      visibility: options.visibility === 'connections' ? 'connections' : 'public',
    },
  }
}

export default { 'Share a post': sharePost }
