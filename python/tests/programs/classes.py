class Account:
    rate = 2

    def __init__(self, owner):
        self.owner = owner
        self.balance = 0

    def deposit(self, amount):
        self.balance += amount * self.rate
        return self.balance


acct = Account("ada")
acct.deposit(5)
other = Account("bob")
