import { BaseCommand, args, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'

/**
 * node ace user:token <email> [--name ci]
 * Creates the user (and their first workspace) when absent and prints a new API token.
 */
export default class UserToken extends BaseCommand {
  static commandName = 'user:token'
  static description = 'Create the user if needed and print a new API token'
  static options: CommandOptions = { startApp: true }

  @args.string({ description: 'E-mail of the user' })
  declare email: string

  @flags.string({ description: 'Token name', default: 'cli' })
  declare name: string

  async run() {
    const { default: FindOrCreateUser } = await import('#actions/users/find_or_create_user')
    const { CreateApiToken } = await import('#actions/api_tokens/create_api_token')
    const { user, created } = await new FindOrCreateUser().handle(this.email)
    // A second token of the same name gets a numbered name, so the command can be re-run.
    let name = this.name
    for (let i = 2; ; i++) {
      try {
        const token = await new CreateApiToken().handle(user, name)
        if (created) this.logger.info(`created user ${user.email}`)
        this.logger.info(`token "${name}" for ${user.email}:`)
        console.log(token.value)
        return
      } catch (error: any) {
        if (error?.code !== 'E_TOKEN_NAME_TAKEN') throw error
        name = `${this.name}-${i}`
      }
    }
  }
}
