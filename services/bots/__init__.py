"""The bot service: plays the bot seats and the zombie seats of every table."""
