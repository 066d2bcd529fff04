import { useRef, useState } from 'react'
import { router } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import { LogOutIcon, Trash2Icon, UploadIcon } from 'lucide-react'
import { usePageProps } from '~/hooks/use_shared_props'
import { Input } from '~/components/ui/input'
import { FieldError, FieldHint, Label } from '~/components/ui/label'
import { Button } from '~/components/ui/button'
import { ConfirmDialog } from '~/components/confirm_dialog'
import { UserAvatar } from '~/features/shell/user_menu'
import { useUpdateUser } from './use_update_user'
import { SettingsSection } from './settings_section'

const PHOTO_TYPES = ['image/jpeg', 'image/png']
const PHOTO_EXTENSIONS = /\.(jpe?g|png)$/i

export function ProfileTab({ photoMaxBytes }: { photoMaxBytes: number }) {
  const { t } = useTranslation()
  const { user, errors } = usePageProps()
  const [name, setName] = useState(user?.name ?? '')
  const [photoError, setPhotoError] = useState<string | null>(null)
  const [uploading, setUploading] = useState(false)
  const fileInput = useRef<HTMLInputElement>(null)
  const updateUser = useUpdateUser(user?.id)

  if (!user) return null
  const maxBytes = photoMaxBytes || 1024 * 1024
  const shownPhotoError = photoError ?? errors?.photo

  function onPhotoChosen(event: React.ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0]
    event.target.value = ''
    if (!file) return
    if (!PHOTO_TYPES.includes(file.type) && !PHOTO_EXTENSIONS.test(file.name)) {
      setPhotoError(t('settings.profile.photoType'))
      return
    }
    if (file.size > maxBytes) {
      setPhotoError(
        t('settings.profile.photoSize', { size: Math.round((maxBytes / (1024 * 1024)) * 10) / 10 })
      )
      return
    }
    setPhotoError(null)
    router.post(
      '/settings/account/photo',
      { photo: file },
      {
        forceFormData: true,
        preserveScroll: true,
        preserveState: true,
        onStart: () => setUploading(true),
        onFinish: () => setUploading(false),
      }
    )
  }

  return (
    <div className="grid gap-6">
      <SettingsSection
        title={t('settings.profile.photoTitle')}
        description={t('settings.profile.photoDescription')}
      >
        <div className="flex flex-wrap items-center gap-4">
          <UserAvatar
            name={user.name}
            email={user.email}
            image={user.image}
            className="size-16 text-lg"
          />
          <div className="flex flex-wrap gap-2">
            <input
              ref={fileInput}
              id="profile-photo"
              type="file"
              accept=".jpg,.jpeg,.png"
              className="sr-only"
              tabIndex={-1}
              aria-hidden
              data-testid="photo-input"
              onChange={onPhotoChosen}
            />
            <Button
              variant="outline"
              size="sm"
              onClick={() => fileInput.current?.click()}
              disabled={uploading}
              data-testid="photo-upload"
              aria-describedby={shownPhotoError ? 'photo-error' : 'photo-hint'}
            >
              <UploadIcon aria-hidden />
              {uploading ? t('settings.profile.uploading') : t('settings.profile.uploadPhoto')}
            </Button>
            {user.image && (
              <ConfirmDialog
                trigger={
                  <Button variant="ghost" size="sm" data-testid="photo-remove">
                    <Trash2Icon aria-hidden />
                    {t('settings.profile.removePhoto')}
                  </Button>
                }
                title={t('settings.profile.removePhotoConfirmTitle')}
                description={t('settings.profile.removePhotoConfirmDescription')}
                confirmLabel={t('settings.profile.removePhoto')}
                onConfirm={() =>
                  router.delete('/settings/account/photo', {
                    preserveScroll: true,
                    preserveState: true,
                  })
                }
              />
            )}
          </div>
        </div>
        {shownPhotoError ? (
          <FieldError id="photo-error">{shownPhotoError}</FieldError>
        ) : (
          <FieldHint id="photo-hint">{t('settings.profile.photoHint')}</FieldHint>
        )}
      </SettingsSection>

      <SettingsSection title={t('settings.profile.detailsTitle')}>
        <div className="grid gap-2">
          <Label htmlFor="profile-name">{t('settings.profile.nameLabel')}</Label>
          <Input
            id="profile-name"
            data-testid="profile-name"
            value={name}
            maxLength={255}
            autoComplete="name"
            onChange={(e) => {
              setName(e.target.value)
              updateUser({ name: e.target.value.trim() || null })
            }}
            placeholder={t('settings.profile.namePlaceholder')}
          />
          <FieldHint>{t('settings.profile.nameHint')}</FieldHint>
        </div>
        <div className="grid gap-2">
          <Label htmlFor="profile-email">{t('settings.profile.emailLabel')}</Label>
          <Input
            id="profile-email"
            data-testid="profile-email"
            value={user.email}
            readOnly
            aria-describedby="profile-email-hint"
          />
          <FieldHint id="profile-email-hint">{t('settings.profile.emailHint')}</FieldHint>
        </div>
      </SettingsSection>

      <SettingsSection
        title={t('settings.profile.sessionsTitle')}
        description={t('settings.profile.sessionsDescription')}
      >
        <div>
          <ConfirmDialog
            trigger={
              <Button variant="outline" size="sm" data-testid="sign-out-everywhere">
                <LogOutIcon aria-hidden />
                {t('settings.profile.signOutEverywhere')}
              </Button>
            }
            title={t('settings.profile.signOutEverywhereConfirmTitle')}
            description={t('settings.profile.signOutEverywhereConfirmDescription')}
            confirmLabel={t('settings.profile.signOutEverywhere')}
            onConfirm={() => router.post('/logout/everywhere')}
          />
        </div>
      </SettingsSection>
    </div>
  )
}
