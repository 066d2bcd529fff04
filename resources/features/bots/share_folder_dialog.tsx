import { useEffect, useState } from 'react'
import { Link, router } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import { LockIcon, UserPlusIcon, XIcon } from 'lucide-react'
import { Button } from '~/components/ui/button'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '~/components/ui/dialog'
import { Label } from '~/components/ui/label'
import { RadioGroup, RadioGroupItem } from '~/components/ui/radio_group'
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '~/components/ui/select'
import { Skeleton } from '~/components/ui/skeleton'
import { errorDescription, jsonFetch } from '~/lib/http'
import { showToast } from '~/lib/toast'
import type { FolderDto } from './types'

type Access = 'view' | 'edit'

interface SharingMember {
  userId: string
  name: string | null
  email: string
  role: 'ADMIN' | 'MEMBER' | 'GUEST'
  access: Access | null
}

interface Sharing {
  isRestricted: boolean
  createdBy: string | null
  members: SharingMember[]
}

/**
 * "Share" on a folder (docs/folder_sharing.md): open to every member of the workspace, or
 * only to the members picked here, each with view or edit access. Admins and the folder's
 * creator always have access. Without the plan's userWiseFolderShare the reason and the
 * upgrade link come first and only "everyone" can be chosen.
 */
export function ShareFolderDialog({
  folder,
  canShareFolders,
  open,
  onOpenChange,
}: {
  folder: FolderDto
  canShareFolders: boolean
  open: boolean
  onOpenChange: (open: boolean) => void
}) {
  const { t } = useTranslation()
  const [sharing, setSharing] = useState<Sharing | null>(null)
  const [loadError, setLoadError] = useState<string | null>(null)
  const [restricted, setRestricted] = useState(false)
  const [shares, setShares] = useState<Map<string, Access>>(new Map())
  const [picked, setPicked] = useState('')
  const [saving, setSaving] = useState(false)

  useEffect(() => {
    if (!open) return
    const controller = new AbortController()
    setSharing(null)
    setLoadError(null)
    jsonFetch<Sharing>(`/api/folders/${folder.id}/sharing`, { signal: controller.signal })
      .then((data) => {
        setSharing(data)
        setRestricted(data.isRestricted)
        setShares(new Map(data.members.filter((m) => m.access).map((m) => [m.userId, m.access!])))
        setPicked('')
      })
      .catch((error) => {
        if (!controller.signal.aborted) setLoadError(errorDescription(error))
      })
    return () => controller.abort()
  }, [open, folder.id])

  const alwaysIn = (m: SharingMember) => m.role === 'ADMIN' || m.userId === sharing?.createdBy
  const members = sharing?.members ?? []
  const withAccess = members.filter((m) => alwaysIn(m) || shares.has(m.userId))
  const candidates = members.filter((m) => !alwaysIn(m) && !shares.has(m.userId))
  const label = (m: SharingMember) => m.name || m.email
  const locked = !canShareFolders

  function add() {
    if (!picked) return
    setShares(new Map(shares).set(picked, 'view'))
    setPicked('')
  }

  async function save() {
    setSaving(true)
    try {
      await jsonFetch(`/api/folders/${folder.id}/sharing`, {
        method: 'PUT',
        body: {
          isRestricted: restricted,
          shares: restricted ? [...shares].map(([userId, access]) => ({ userId, access })) : [],
        },
      })
      showToast('success', t('bots.share.saved'), folder.name)
      onOpenChange(false)
      router.reload()
    } catch (error) {
      showToast('error', t('bots.share.saveFailed'), errorDescription(error))
    } finally {
      setSaving(false)
    }
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-lg" data-testid="share-folder-dialog">
        <DialogHeader>
          <DialogTitle>{t('bots.share.title', { name: folder.name })}</DialogTitle>
          <DialogDescription>{t('bots.share.description')}</DialogDescription>
        </DialogHeader>

        {locked && (
          <div
            data-testid="share-locked"
            className="flex items-start gap-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
          >
            <LockIcon aria-hidden className="mt-0.5 size-4 shrink-0" />
            <p>
              {t('bots.share.locked')}{' '}
              <Link href="/bots/plans" className="font-medium underline underline-offset-4">
                {t('bots.share.upgrade')}
              </Link>
            </p>
          </div>
        )}

        {loadError ? (
          <p role="alert" className="text-sm text-destructive">
            {loadError}
          </p>
        ) : !sharing ? (
          <div className="grid gap-2" aria-busy="true" aria-label={t('bots.share.loading')}>
            <Skeleton className="h-5 w-2/3" />
            <Skeleton className="h-5 w-1/2" />
            <Skeleton className="h-9 w-full" />
          </div>
        ) : (
          <div className="grid min-w-0 gap-4">
            <RadioGroup
              value={restricted ? 'restricted' : 'everyone'}
              onValueChange={(value) => setRestricted(value === 'restricted')}
              aria-label={t('bots.share.who')}
              className="grid gap-2"
            >
              <div className="flex items-center gap-2">
                <RadioGroupItem value="everyone" id="share-everyone" />
                <Label htmlFor="share-everyone">{t('bots.share.everyone')}</Label>
              </div>
              <div className="flex items-center gap-2">
                <RadioGroupItem
                  value="restricted"
                  id="share-restricted"
                  data-testid="share-restricted"
                  disabled={locked && !sharing.isRestricted}
                />
                <Label htmlFor="share-restricted">{t('bots.share.chosen')}</Label>
              </div>
            </RadioGroup>

            {restricted && (
              <>
                <ul className="grid gap-2" data-testid="share-people">
                  {withAccess.map((m) => (
                    <li
                      key={m.userId}
                      data-testid="share-person"
                      data-user-id={m.userId}
                      className="flex min-w-0 flex-wrap items-center gap-2 rounded-md border px-3 py-2"
                    >
                      <div className="min-w-0 flex-1">
                        <p className="truncate text-sm font-medium">{label(m)}</p>
                        {m.name && (
                          <p className="truncate text-xs text-muted-foreground">{m.email}</p>
                        )}
                      </div>
                      {alwaysIn(m) ? (
                        <span className="text-xs text-muted-foreground">
                          {m.role === 'ADMIN' ? t('bots.share.admin') : t('bots.share.creator')}
                        </span>
                      ) : (
                        <>
                          <Select
                            value={shares.get(m.userId)}
                            onValueChange={(value) =>
                              setShares(new Map(shares).set(m.userId, value as Access))
                            }
                          >
                            <SelectTrigger
                              size="sm"
                              className="w-32"
                              data-testid="share-access"
                              aria-label={t('bots.share.accessFor', { name: label(m) })}
                            >
                              <SelectValue />
                            </SelectTrigger>
                            <SelectContent>
                              <SelectItem value="view">{t('bots.share.view')}</SelectItem>
                              <SelectItem value="edit">{t('bots.share.edit')}</SelectItem>
                            </SelectContent>
                          </Select>
                          <Button
                            variant="ghost"
                            size="icon-sm"
                            data-testid="share-remove"
                            aria-label={t('bots.share.remove', { name: label(m) })}
                            onClick={() => {
                              const next = new Map(shares)
                              next.delete(m.userId)
                              setShares(next)
                            }}
                          >
                            <XIcon aria-hidden />
                          </Button>
                        </>
                      )}
                    </li>
                  ))}
                </ul>

                {candidates.length > 0 ? (
                  <div className="flex min-w-0 gap-2">
                    <Select value={picked} onValueChange={setPicked}>
                      <SelectTrigger
                        className="min-w-0 flex-1"
                        data-testid="share-member-picker"
                        aria-label={t('bots.share.pick')}
                      >
                        <SelectValue placeholder={t('bots.share.pick')} />
                      </SelectTrigger>
                      <SelectContent>
                        {candidates.map((m) => (
                          <SelectItem key={m.userId} value={m.userId}>
                            {m.name ? `${m.name} (${m.email})` : m.email}
                          </SelectItem>
                        ))}
                      </SelectContent>
                    </Select>
                    <Button
                      variant="outline"
                      data-testid="share-add"
                      disabled={!picked || locked}
                      onClick={add}
                    >
                      <UserPlusIcon aria-hidden />
                      {t('bots.share.add')}
                    </Button>
                  </div>
                ) : (
                  <p className="text-sm text-muted-foreground">{t('bots.share.noOneElse')}</p>
                )}
              </>
            )}
          </div>
        )}

        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            {t('bots.share.cancel')}
          </Button>
          <Button
            data-testid="share-save"
            disabled={!sharing || saving || (locked && restricted)}
            onClick={save}
          >
            {saving ? t('bots.share.saving') : t('bots.share.save')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}
