## Who is asking: a person, never a chat or a channel they write on behalf of

identity-as-yourself = This was sent on behalf of a chat or a channel, so I cannot tell who is playing. Send the command as yourself: choose your own account under “Send as”, or, as an administrator, turn off “Remain Anonymous”.
kick-ambiguous = More than one player at this table goes by { $name }, so no one was removed. { $platform ->
    [discord] Pick the one to remove in the command's player option.
   *[other] Reply with /general kick to a message of the one to remove, or mention them: /general kick @username.
}
